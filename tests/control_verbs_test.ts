/**
 * Every control verb and its error paths, against a real Runtime, real
 * sessions (bash in PTYs) and the real control socket (docs/control-api.md).
 */

import assert from "node:assert/strict";
import { waitForText } from "../src/session/test_util.ts";
import type { SessionEntry } from "../src/control/entry.ts";
import { startInstance } from "./control_helpers.ts";
import { hookMessage, sendHook } from "../src/ipc/hook_client.ts";

const BASH = "bash --norc --noprofile";

Deno.test("new, list, read, send, rename, group, ungroup: the happy path", async () => {
  await using t = await startInstance();
  const created = await t.ok<SessionEntry>("new", {
    name: "build",
    command: BASH,
    group: "agents",
  });
  assert.equal(created.id, "session-1");
  assert.equal(created.group, "agents");
  // `new` does not steal focus (C2).
  assert.deepEqual(t.runtime.state.focus, []);
  const session = t.runtime.store.get("session-1")!;
  assert.match(session.env.LAZYSHELL_SOCK!, /\/session-1\.sock$/);
  assert.equal(session.env.LAZYSHELL_CONTROL, t.sockets.control!.path);

  const sent = await t.ok<{ bytes: number }>("send", {
    target: "build",
    text: "echo marker-$((6*7))",
    enter: true,
  });
  assert.equal(sent.bytes, "echo marker-$((6*7))\r".length);
  await waitForText(session, "marker-42", 15_000);
  const read = await t.ok<{ lines: string[] }>("read", { target: "session-1" });
  assert.ok(read.lines.some((l) => l === "marker-42"), read.lines.join("\n"));
  const tail = await t.ok<{ lines: string[] }>("read", { target: "build", tail: 2 });
  assert.ok(tail.lines.length <= 2);

  await t.ok("rename", { target: "build", name: "tests" });
  await t.ok("ungroup", { target: "tests" });
  let list = await t.ok<{ sessions: SessionEntry[] }>("list");
  assert.deepEqual(list.sessions.map((s) => [s.id, s.name, s.group, s.status]), [
    ["session-1", "tests", null, "running"],
  ]);
  await t.ok("group", { target: "session-1", group: "g2" });
  list = await t.ok("list", { group: "g2" });
  assert.equal(list.sessions.length, 1);
});

Deno.test("kill ends the process and leaves the session listed as exited", async () => {
  await using t = await startInstance();
  await t.ok("new", { name: "victim", command: "sleep 60" });
  const killed = await t.ok<SessionEntry>("kill", { target: "victim" });
  assert.equal(killed.status, "exited");
  const list = await t.ok<{ sessions: SessionEntry[] }>("list");
  assert.deepEqual(list.sessions.map((s) => [s.name, s.status]), [["victim", "exited"]]);
  assert.match(await t.error("kill", { target: "victim" }), /already exited/);
  assert.match(await t.error("send", { target: "victim", text: "x" }), /has exited/);
});

Deno.test("every verb refuses unknown targets, bad names and bad arguments", async () => {
  await using t = await startInstance();
  await t.ok("new", { name: "one", command: "sleep 60" });
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ["read", { target: "nope" }, /No session with id or name: nope/],
    ["send", { target: "session-9", text: "x" }, /No session with id or name: session-9/],
    ["kill", { target: "nope" }, /No session/],
    ["rename", { target: "nope", name: "x" }, /No session/],
    ["rename", { target: "one", name: "session-4" }, /reserved/],
    ["group", { target: "nope", group: "g" }, /No session/],
    ["ungroup", { target: "nope" }, /No session/],
    ["new", { name: "one" }, /already named one/],
    ["new", { cwd: "/definitely/not/here" }, /Working directory does not exist/],
    ["new", { command: "no-such-program-xyz" }, /Command not found/],
    ["new", { group: "two words" }, /Invalid group name/],
    ["new", { group: "evil\u001b]0;x\u0007" }, /^Invalid group name: "evil\\u001b\]0;x\\u0007" \(/],
    ["group", { target: "one", group: "c1\u009b31m" }, /^Invalid group name: "c1\\u009b31m"/],
    ["group", { target: "one", group: "del\u007f" }, /Invalid group name/],
    ["rename", { target: "one", name: "bell\u0007" }, /^Invalid session name: "bell\\u0007"/],
    ["rename", { target: "one", name: "csi\u009b" }, /Invalid session name/],
    ["read", {}, /missing TARGET/],
    ["read", { target: "one", tail: -1 }, /--tail must be a whole number/],
    ["read", { target: "one", lines: 3 }, /unknown argument lines/],
    ["send", { target: "one", text: 5 }, /TEXT must be text/],
    ["send", { target: "one", text: "y", ifState: "blocked" }, /./],
    ["send", { target: "one", text: "y", ifState: "sleepy" }, /Unknown state: sleepy/],
  ];
  for (const [verb, args, pattern] of cases) {
    assert.match(await t.error(verb, args), pattern, `${verb} ${JSON.stringify(args)}`);
  }
  const unknown = await t.call("frobnicate");
  assert.equal(unknown.ok, false);
  assert.match(!unknown.ok ? unknown.error : "", /Unknown verb: frobnicate \(expected list, read/);
});

Deno.test("group-send counts, skips exited members and reports each member", async () => {
  await using t = await startInstance();
  await t.ok("new", { name: "a", command: BASH, group: "crew" });
  await t.ok("new", { name: "b", command: "true", group: "crew" });
  await t.ok("new", { name: "c", command: BASH, group: "crew" });
  await t.runtime.store.get("session-2")!.exited;
  const r = await t.ok<{ count: number; skipped: number; members: unknown[] }>("group-send", {
    group: "crew",
    text: "echo crew-$((1+1))",
    enter: true,
  });
  assert.equal(r.count, 2);
  assert.equal(r.skipped, 1);
  assert.deepEqual(r.members, [
    // Shells, not agents: no receipt to wait for (docs/control-api.md "Receipts").
    { id: "session-1", name: "a", result: "sent", receipt: null },
    { id: "session-2", name: "b", result: "skipped (exited)", receipt: null },
    { id: "session-3", name: "c", result: "sent", receipt: null },
  ]);
  await waitForText(t.runtime.store.get("session-1")!, "crew-2", 15_000);
  await waitForText(t.runtime.store.get("session-3")!, "crew-2", 15_000);
  assert.match(
    await t.error("group-send", { group: "nobody", text: "x" }),
    /No session in group nobody/,
  );

  const killed = await t.ok<{ count: number; members: { result: string }[] }>("group-kill", {
    group: "crew",
  });
  assert.equal(killed.count, 2);
  assert.deepEqual(killed.members.map((m) => m.result), ["killed", "already exited", "killed"]);
  assert.match(await t.error("group-kill", { group: "crew" }), /already exited/);
  assert.match(await t.error("group-send", { group: "crew", text: "x" }), /has exited/);
  assert.match(await t.error("group-kill", { group: "" }), /No session in group/);
});

Deno.test("wait fails on unknown state, target or group, timeout, and exit before the state", async () => {
  await using t = await startInstance();
  await t.ok("new", { name: "w", command: "sleep 60", group: "g" });
  assert.match(await t.error("wait", { target: "w", state: "asleep" }), /Unknown state: asleep/);
  assert.match(await t.error("wait", { target: "nope", state: "idle" }), /No session/);
  assert.match(await t.error("wait", { group: "nope", state: "idle" }), /No session in group nope/);
  assert.match(await t.error("wait", { state: "idle" }), /Give a target/);
  assert.match(await t.error("wait", { target: "w", group: "g", state: "idle" }), /not both/);
  assert.match(await t.error("wait", { target: "w", state: "idle", all: true }), /--all needs/);
  assert.match(await t.error("wait", { state: "x" }), /Unknown state/);
  assert.match(
    await t.error("wait", { target: "w", state: "blocked", timeout: 0.2 }),
    /Timed out after 0.2 s waiting for session-1 \(w\) to be blocked/,
  );
  assert.match(
    await t.error("wait", { group: "g", state: "done", timeout: 0.2, all: true }),
    /Timed out after 0.2 s waiting for every session of group g to be done/,
  );
  await t.ok("new", { name: "short", command: "sleep 1", group: "g2" });
  assert.match(
    await t.error("wait", { target: "short", state: "blocked", timeout: 60 }),
    /session-2 \(short\) exited before reaching blocked/,
  );
  assert.match(
    await t.error("wait", { group: "g2", state: "blocked", timeout: 60 }),
    /Every session of group g2 exited before reaching blocked/,
  );
});

Deno.test("read --tail replies are bounded: a 600,000-character line comes back as its end", async () => {
  await using t = await startInstance();
  await t.ok("new", {
    name: "wide",
    command: "head -c 600000 /dev/zero | tr '\\0' a; echo tail-end; exec sleep 60",
  });
  const session = t.runtime.store.get("session-1")!;
  await waitForText(session, "tail-end", 15_000);
  const reply = await t.call("read", { target: "wide", tail: 200 });
  const size = new TextEncoder().encode(JSON.stringify(reply)).length;
  assert.ok(reply.ok);
  const { lines, truncated } = reply.result as { lines: string[]; truncated: boolean };
  assert.equal(truncated, true);
  assert.ok(size <= 520 * 1024, `a reply of ${size} bytes`);
  assert.match(lines.at(-1)!, /a{1000}tail-end$/);
});

Deno.test("list --json: a hook's message reaches msg without its escape sequences", async () => {
  await using t = await startInstance();
  await t.ok<SessionEntry>("new", { name: "agent", command: BASH });
  const sock = t.runtime.store.get("session-1")!.env.LAZYSHELL_SOCK!;
  const message = "\x1b]0;pwned\x07\x1b[2J\x1b]52;c;ZXZpbA==\x07Allow \x1b[31mrm\x1b[0m?\u202e";
  const sent = await sendHook(sock, hookMessage("blocked", "permission", { message }), 5_000);
  assert.equal(sent, "acked");
  const list = await t.ok<{ sessions: SessionEntry[] }>("list");
  assert.equal(list.sessions[0]!.state, "blocked");
  assert.equal(list.sessions[0]!.msg, "Allow rm?");
});
