import assert from "node:assert/strict";
import {
  type Effect,
  initialState,
  type LifeEvent,
  receivesKey,
  step,
  type TabState,
  wants,
} from "./lifecycle.ts";
import { parsePluginMessage } from "./protocol.ts";

const manifest = (extra = "") =>
  ({
    type: "message",
    message: parsePluginMessage(`{"type":"manifest","title":"T"${extra}}`),
  }) as const;
const frame = (capturing: boolean) =>
  ({
    type: "message",
    message: parsePluginMessage(`{"type":"frame","view":"v","capturing":${capturing}}`),
  }) as const;

function run(events: LifeEvent[], state: TabState = initialState("p")): {
  state: TabState;
  effects: Effect[];
} {
  const effects: Effect[] = [];
  for (const e of events) {
    const next = step(state, e);
    state = next.state;
    effects.push(...next.effects);
  }
  return { state, effects };
}

const types = (effects: Effect[]) =>
  effects.filter((e) => e.type !== "changed").map((e) =>
    e.type === "signal" ? `signal ${e.signal}` : "timer" in e ? `${e.type} ${e.timer}` : e.type
  );

Deno.test("start sends init and arms the 3 s manifest timer; the manifest makes it run", () => {
  const { state, effects } = run([{ type: "started" }, manifest()]);
  assert.equal(state.phase, "running");
  assert.equal(state.manifest?.title, "T");
  assert.deepEqual(types(effects), [
    "send_init",
    "start_timer manifest",
    "cancel_timer manifest",
    "ready",
  ]);
  const timer = effects.find((e) => e.type === "start_timer");
  assert.deepEqual(timer, { type: "start_timer", timer: "manifest", ms: 3000 });
});

Deno.test("no manifest in time fails the tab and tears the group down", () => {
  const { state, effects } = run([{ type: "started" }, { type: "timeout", timer: "manifest" }]);
  assert.equal(state.phase, "failed");
  assert.equal(state.error, "No manifest within 3 s of init");
  assert.deepEqual(types(effects).slice(2), [
    "cancel_timer manifest",
    "close_stdin",
    "signal SIGTERM",
    "start_timer kill",
  ]);
  const after = run([{ type: "timeout", timer: "kill" }, {
    type: "exited",
    exit: { code: null, signal: "SIGKILL" },
  }], state);
  assert.deepEqual(types(after.effects), [
    "signal SIGKILL",
    "cancel_timer manifest",
    "cancel_timer term",
    "cancel_timer kill",
    "kill_leftovers",
  ]);
  assert.equal(after.state.error, "No manifest within 3 s of init", "the first reason is kept");
});

Deno.test("a first line that is not a manifest is a failure", () => {
  const { state } = run([{ type: "started" }, frame(false)]);
  assert.equal(state.phase, "failed");
  assert.match(state.error!, /Expected a manifest as the first line, got "frame"/);
});

Deno.test("bad lines, a full queue and an unexpected exit fail a running tab", () => {
  const base = run([{ type: "started" }, manifest()]).state;
  assert.equal(
    run([{ type: "bad_line", reason: "Not a JSON line" }], base).state.error,
    "Not a JSON line",
  );
  assert.match(
    run([{ type: "queue_full", queued: 256 }], base).state.error!,
    /256 messages queued/,
  );
  const crashed = run([{ type: "exited", exit: { code: 3, signal: null } }], base);
  assert.equal(crashed.state.phase, "failed");
  assert.equal(crashed.state.error, "Exited with code 3");
  assert.ok(types(crashed.effects).includes("kill_leftovers"));
});

Deno.test("stop closes stdin, SIGTERMs after the grace period, SIGKILLs 2 s later", () => {
  const base = run([{ type: "started" }, manifest()]).state;
  const stopping = run([{ type: "stop" }], base);
  assert.equal(stopping.state.phase, "stopping");
  assert.deepEqual(types(stopping.effects), [
    "cancel_timer manifest",
    "close_stdin",
    "start_timer term",
  ]);
  const term = run([{ type: "timeout", timer: "term" }], stopping.state);
  assert.deepEqual(types(term.effects), ["signal SIGTERM", "start_timer kill"]);
  assert.deepEqual(term.effects[1], { type: "start_timer", timer: "kill", ms: 2000 });
  const done = run([{ type: "exited", exit: { code: 0, signal: null } }], term.state);
  assert.equal(done.state.phase, "stopped");
  assert.equal(done.state.error, null);
  assert.deepEqual(run([{ type: "timeout", timer: "kill" }], done.state).effects, []);
});

Deno.test("frames replace each other; exec and requests become effects", () => {
  const { state, effects } = run([
    { type: "started" },
    manifest(),
    frame(false),
    { type: "message", message: parsePluginMessage('{"type":"exec","execId":1,"argv":["ls"]}') },
    {
      type: "message",
      message: parsePluginMessage('{"type":"select_session","session":"session-1"}'),
    },
    frame(true),
  ]);
  assert.equal(state.frame?.capturing, true);
  assert.deepEqual(types(effects).slice(-2), ["exec", "request"]);
});

Deno.test("global keys reach the plugin only while it captures", () => {
  const running = run([{ type: "started" }, manifest(), frame(false)]).state;
  assert.equal(receivesKey(running, "x"), true);
  for (const key of ["q", "?", ":", "tab", "shift+tab", "1", "9"]) {
    assert.equal(receivesKey(running, key), false, key);
  }
  const capturing = run([frame(true)], running).state;
  assert.equal(receivesKey(capturing, "q"), true);
  assert.equal(receivesKey(initialState("p"), "x"), false, "not before the manifest");
});

Deno.test("a v1 plugin never receives extension messages", () => {
  const plain = run([{ type: "started" }, manifest()]).state;
  const subscribed = run([{ type: "started" }, manifest(',"subscribe":["sessions"]')]).state;
  assert.equal(wants(plain, "key"), true);
  assert.equal(wants(plain, "sessions"), false);
  assert.equal(wants(plain, "visible"), false);
  assert.equal(wants(subscribed, "sessions"), true);
  assert.equal(wants(subscribed, "visible"), false);
  assert.equal(wants(initialState("p"), "sessions"), false);
});
