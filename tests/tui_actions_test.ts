/**
 * The TUI's actions carried out on a real Runtime: the loop (TuiApp) is
 * driven with host-terminal bytes and the sessions are real PTY children.
 */

import assert from "node:assert/strict";
import { appLab } from "./app_lab.ts";
import { waitFor, waitForText } from "../src/session/test_util.ts";
import { within } from "../src/util/async.ts";
import { latestFocus } from "../src/model/runtime.ts";
import { LOCAL_CLIENT } from "../src/runtime/runtime.ts";

const WAIT = 30_000;

const setup = () => appLab("lazyshell-tui-actions-", { cols: 100, rows: 30 });

Deno.test("n, r, v, W and x act on real sessions", async () => {
  await using t = setup();
  const { runtime, app } = t;
  // n: a new shell, selected, in terminal mode.
  app.feed("n");
  assert.equal(runtime.store.list().length, 1);
  const first = runtime.store.list()[0]!;
  assert.equal(app.state.selected, first.id);
  assert.equal(app.state.mode, "terminal");
  const focus = () => latestFocus(runtime.state);
  assert.deepEqual(focus(), { client: LOCAL_CLIENT, selected: first.id, terminal: true });
  app.feed("\x1d");
  assert.deepEqual(focus(), { client: LOCAL_CLIENT, selected: first.id, terminal: false });

  // r: rename through the input line.
  app.feed("r\x15api\r");
  assert.equal(first.name, "api");

  // v: arm a watcher pattern, then disarm it with an empty one.
  app.feed("vERR!\r");
  assert.equal(runtime.view(first.id)?.watcher, "ERR!");
  app.feed("v\x15\r");
  assert.equal(runtime.view(first.id)?.watcher, null);
  app.feed("v(\r");
  assert.equal(app.state.message?.error, true, "a bad pattern is one line, not a crash");
  assert.equal(runtime.view(first.id)?.watcher, null, "the refused pattern is not armed");
  app.feed("vERR!\r");
  assert.equal(runtime.view(first.id)?.watcher, "ERR!");
  assert.equal(app.state.sessions.find((s) => s.id === first.id)?.watcher, "ERR!");

  // W: the same session (id, name, place, watcher) runs a new child.
  runtime.createSession({ name: "other" });
  app.feed("W");
  await waitFor(
    first,
    () => runtime.store.get(first.id) !== undefined && runtime.store.get(first.id) !== first,
    WAIT,
    "restart",
  );
  const second = runtime.store.get(first.id)!;
  assert.equal(second.name, "api");
  assert.equal(second.command, first.command);
  assert.deepEqual(runtime.store.list().map((s) => s.name), ["api", "other"], "same place");
  assert.deepEqual(
    runtime.state.watchers.map((w) => [w.session, w.pattern, w.source]),
    [[second.id, "ERR!", "live"]],
    "the watcher stays",
  );
  assert.equal(runtime.view(second.id)?.watcher, "ERR!");
  assert.equal(app.state.selected, second.id);
  runtime.store.kill("other");
  runtime.store.remove("other");

  // x: kill, then x again removes the exited session. The app's rows follow
  // the store asynchronously: wait for the row before acting on it.
  await waitForText(second, /\S/, WAIT);
  await waitFor(
    second,
    () => app.state.sessions.some((r) => r.id === second.id && r.status === "running"),
    WAIT,
    "the restarted session's row",
  );
  app.feed("x");
  assert.ok(await within(second.exited, WAIT), "x ended the session");
  await waitFor(second, () => app.state.sessions[0]?.status === "exited", WAIT, "exited row");
  app.feed("x");
  assert.equal(runtime.store.list().length, 0);
  assert.equal(app.state.selected, null);
});

Deno.test("x asks before ending a program running in a session; n keeps it, y ends it", async () => {
  await using t = setup();
  const { runtime, app } = t;
  app.feed("n");
  const session = runtime.store.list()[0]!;
  await waitForText(session, /[$#]\s*$/, WAIT);
  session.write("sleep 300\r");
  await waitFor(
    session,
    () => (session.foreground()?.comm ?? "") === "sleep",
    WAIT,
    "sleep in the foreground",
  );
  app.feed("\x1d");
  app.feed("x");
  const overlay = app.state.overlay;
  assert.ok(overlay?.type === "confirm-kill", JSON.stringify(overlay));
  assert.match(overlay.what, /running sleep/);
  app.feed("n");
  assert.equal(app.state.overlay, null);
  assert.equal(session.status, "running", "n keeps it");
  app.feed("x");
  app.feed("y");
  assert.ok(await within(session.exited, WAIT), "y ended it");
});

Deno.test("the palette's restart-group asks before ending the group's programs; any other key cancels, y restarts them", async () => {
  await using t = setup();
  const { runtime, app } = t;
  const busy = runtime.createSession({ name: "busy", group: "backend" });
  const idle = runtime.createSession({ name: "idle", group: "backend" });
  await waitForText(busy, /[$#]\s*$/, WAIT);
  busy.write("sleep 300\r");
  await waitFor(busy, () => (busy.foreground()?.comm ?? "") === "sleep", WAIT, "sleep");
  await waitFor(busy, () => app.state.sessions.length === 2, WAIT, "both rows");
  app.feed("\x1d");
  const palette = () => {
    app.feed(":restart-group");
    assert.equal(app.state.overlay?.type, "palette");
    app.feed("\r");
  };
  palette();
  const overlay = app.state.overlay;
  assert.ok(overlay?.type === "confirm-kill" && overlay.restart, JSON.stringify(overlay));
  assert.equal(overlay.what, "group backend: busy (running sleep)");
  assert.deepEqual(overlay.ids, [busy.id, idle.id]);
  app.feed("q");
  assert.equal(app.state.overlay, null);
  assert.equal(busy.status, "running", "any other key keeps them");
  assert.equal(runtime.store.get(idle.id), idle, "the idle one too");
  palette();
  app.feed("y");
  assert.ok(await within(busy.exited, WAIT), "y ended the busy one");
  await waitFor(
    busy,
    () =>
      [busy.id, idle.id].every((id) => {
        const now = runtime.store.get(id);
        return now !== undefined && now !== busy && now !== idle && now.status === "running";
      }),
    WAIT,
    "both restarted",
  );
});

Deno.test("W asks before restarting a session that runs a program; n keeps it, y restarts it", async () => {
  await using t = setup();
  const { runtime, app } = t;
  app.feed("n");
  const session = runtime.store.list()[0]!;
  await waitForText(session, /[$#]\s*$/, WAIT);
  session.write("sleep 300\r");
  await waitFor(
    session,
    () => (session.foreground()?.comm ?? "") === "sleep",
    WAIT,
    "sleep in the foreground",
  );
  app.feed("\x1d");
  app.feed("W");
  const overlay = app.state.overlay;
  assert.ok(overlay?.type === "confirm-kill" && overlay.restart, JSON.stringify(overlay));
  assert.match(overlay.what, /running sleep/);
  app.feed("n");
  assert.equal(app.state.overlay, null);
  assert.equal(session.status, "running", "n keeps it");
  app.feed("W");
  app.feed("y");
  assert.ok(await within(session.exited, WAIT), "y ended it");
  await waitFor(
    session,
    () => runtime.store.list()[0]?.status === "running" && runtime.store.list()[0] !== session,
    WAIT,
    "the restarted session",
  );
});
