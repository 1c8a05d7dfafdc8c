/**
 * `ctl wait` and `send --if-state` released by real state changes in real
 * sessions: a program declaring OSC 7501, a stand-in `claude` drawing Claude
 * Code's permission prompt (screen rules), and `lazyshell hook` run inside
 * a session (hook socket → DetectionHub).
 */

import assert from "node:assert/strict";
import type { SessionEntry } from "../src/control/entry.ts";
import { selfCommand } from "../src/plugin/self.ts";
import { shellQuote } from "../src/ipc/integrations.ts";
import { startInstance } from "./control_helpers.ts";

interface WaitReply {
  state: string;
  first: string | null;
  members: { id: string; state: string | null; reached: boolean }[];
}

Deno.test("wait is released by an OSC 7501 declaration", async () => {
  await using t = await startInstance();
  await t.ok("new", { name: "quiet", command: "sleep 60", group: "g" });
  await t.ok("new", {
    name: "declarer",
    group: "g",
    command: String
      .raw`read -r go; printf '\033]7501;state=blocked:kind=permission:msg=QXBwbHk/\033\\'; sleep 60`,
  });
  const single = t.call("wait", { target: "declarer", state: "blocked", timeout: 60 });
  const group = t.call("wait", { group: "g", state: "blocked", timeout: 60 });
  await t.ok("send", { target: "declarer", text: "go", enter: true });
  const [one, first] = await Promise.all([single, group]);
  assert.ok(one.ok, !one.ok ? one.error : "");
  assert.ok(first.ok, !first.ok ? first.error : "");
  assert.equal((first.result as WaitReply).first, "session-2");
  const list = await t.ok<{ sessions: SessionEntry[] }>("list");
  const declarer = list.sessions.find((s) => s.name === "declarer")!;
  assert.deepEqual([declarer.state, declarer.kind, declarer.source, declarer.msg], [
    "blocked",
    "permission",
    "declared",
    "Apply?",
  ]);
});

Deno.test("wait --all waits for every member; send --if-state types only in that state", async () => {
  await using t = await startInstance();
  const declare = (state: string) =>
    String.raw`read -r line; printf '\033]7501;state=${state}\033\\'; sleep 60`;
  await t.ok("new", { name: "a", group: "all", command: declare("done") });
  await t.ok("new", { name: "b", group: "all", command: declare("done") });
  const all = t.call("wait", { group: "all", state: "done", all: true, timeout: 60 });
  assert.match(
    await t.error("send", { target: "a", text: "go", enter: true, ifState: "done" }),
    /session-1 \(a\) is in no agent state, not done: nothing sent/,
  );
  await t.ok("send", { target: "a", text: "go", enter: true });
  await t.ok("wait", { target: "a", state: "done", timeout: 60 });
  await t.ok("send", { target: "b", text: "go", enter: true });
  const released = await all;
  assert.ok(released.ok, !released.ok ? released.error : "");
  const reply = released.result as WaitReply;
  assert.equal(reply.first, null);
  assert.deepEqual(reply.members.map((m) => m.reached), [true, true]);
  const sent = await t.ok<{ state: string }>("send", { target: "b", text: "x", ifState: "done" });
  assert.equal(sent.state, "done");
});

Deno.test("a stand-in claude drawing a permission prompt releases wait (screen rules)", async () => {
  await using t = await startInstance();
  const bin = `${t.base}/bin`;
  Deno.mkdirSync(bin);
  // The rows Claude Code 2.1.332 draws for a Bash permission prompt (captures/README.md, claude-tool @13978).
  Deno.writeTextFileSync(
    `${bin}/claude`,
    [
      "#!/bin/bash",
      "printf '\\033]0;✳ Claude Code\\007'",
      "printf '● Bash(touch lab-file.txt)\\r\\n  ⎿  Waiting…\\r\\n\\r\\n'",
      "printf ' Bash command\\r\\n\\r\\n   touch lab-file.txt\\r\\n   Create the lab marker file\\r\\n\\r\\n'",
      "printf ' Do you want to proceed?\\r\\n ❯ 1. Yes\\r\\n   2. Yes, and always allow access to lab/ from this project\\r\\n   3. No\\r\\n\\r\\n'",
      "printf ' Esc to cancel · Tab to amend'",
      "read -r answer",
      "printf '\\033[2J\\033[H● Done\\r\\n'",
      "sleep 60",
    ].join("\n") + "\n",
    { mode: 0o755 },
  );
  await t.ok("new", { name: "fake", command: `${bin}/claude` });
  const reply = await t.ok<WaitReply>("wait", { target: "fake", state: "blocked", timeout: 60 });
  assert.equal(reply.members[0]!.state, "blocked");
  const [entry] = (await t.ok<{ sessions: SessionEntry[] }>("list")).sessions;
  assert.deepEqual([entry!.agent, entry!.state, entry!.kind, entry!.source], [
    "claude",
    "blocked",
    "permission",
    "screen",
  ]);
  assert.match(
    await t.error("send", { target: "fake", text: "1", ifState: "working" }),
    /is blocked, not working: nothing sent/,
  );
  await t.ok("send", { target: "fake", text: "1", enter: true, ifState: "blocked" });
  const after = await t.ok<WaitReply>("wait", { target: "fake", state: "idle", timeout: 60 });
  assert.equal(after.members[0]!.state, "idle");
});

Deno.test("lazyshell hook inside a session reaches detection through its socket", async () => {
  await using t = await startInstance();
  const hook = [...selfCommand(), "hook"].map(shellQuote).join(" ");
  const payload = `'{"hook_event_name":"PermissionRequest","tool_name":"AskUserQuestion"}'`;
  await t.ok("new", {
    name: "hooked",
    command: `echo ${payload} | ${hook} blocked --kind permission; sleep 60`,
  });
  const reply = await t.ok<WaitReply>("wait", { target: "hooked", state: "blocked", timeout: 60 });
  assert.equal(reply.members[0]!.state, "blocked");
  const [entry] = (await t.ok<{ sessions: SessionEntry[] }>("list")).sessions;
  assert.deepEqual([entry!.state, entry!.kind, entry!.source], ["blocked", "question", "hook"]);
});

Deno.test("lazyshell hook with a terminal on stdin reads nothing, prints nothing, exits 0", async () => {
  await using t = await startInstance();
  const hook = [...selfCommand(), "hook"].map(shellQuote).join(" ");
  await t.ok("new", {
    name: "tty",
    command: `${hook} working; echo "[rc=$?]"; sleep 60`,
  });
  const reply = await t.ok<WaitReply>("wait", { target: "tty", state: "working", timeout: 60 });
  assert.equal(reply.members[0]!.state, "working");
  const { waitForText } = await import("../src/session/test_util.ts");
  const session = t.runtime.store.get("session-1")!;
  await waitForText(session, "[rc=0]", 30_000);
  // Nothing but our echo reached the terminal.
  assert.deepEqual(session.terminal.visibleLines().filter((l) => l.trim()), ["[rc=0]"]);
});

Deno.test("list --json says which sessions speak OSC 7501 (capable: asked the ? query)", async () => {
  await using t = await startInstance();
  await t.ok("new", { name: "quiet", command: "sleep 60" });
  await t.ok("new", {
    name: "speaker",
    command: String.raw`printf '\033]7501;?\033\\'; echo asked; sleep 60`,
  });
  let sessions: SessionEntry[] = [];
  for (let i = 0; i < 200; i++) {
    sessions = (await t.ok<{ sessions: SessionEntry[] }>("list")).sessions;
    if (sessions.find((s) => s.name === "speaker")?.capable) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.deepEqual(sessions.map((s) => [s.name, s.capable]), [["quiet", false], ["speaker", true]]);
});

Deno.test("a stand-in codex showing a failed turn releases wait --state error, with why", async () => {
  await using t = await startInstance();
  const bin = `${t.base}/bin`;
  Deno.mkdirSync(bin);
  // The bottom rows of Codex 0.171.0 after it gave up on a rate limit (codex-fail-rate @64872).
  Deno.writeTextFileSync(
    `${bin}/codex`,
    [
      "#!/bin/bash",
      "printf '› LAB-FAIL-RATE: please create the marker file\\r\\n\\r\\n'",
      "printf '■ exceeded retry limit, last status: 429 Too Many Requests\\r\\n\\r\\n'",
      "printf '› Ask Codex to do anything\\r\\n\\r\\n  ← for agents · ? for shortcuts'",
      "sleep 60",
    ].join("\n") + "\n",
    { mode: 0o755 },
  );
  await t.ok("new", { name: "failing", command: `${bin}/codex` });
  const reply = await t.ok<WaitReply>("wait", { target: "failing", state: "error", timeout: 60 });
  assert.equal(reply.members[0]!.state, "error");
  const [entry] = (await t.ok<{ sessions: SessionEntry[] }>("list")).sessions;
  assert.deepEqual([entry!.agent, entry!.state, entry!.kind, entry!.source, entry!.msg], [
    "codex",
    "error",
    "rate_limit",
    "screen",
    "exceeded retry limit, last status: 429 Too Many Requests",
  ]);
});

Deno.test("Claude's StopFailure hook inside a session is an error with its kind", async () => {
  await using t = await startInstance();
  const hook = [...selfCommand(), "hook"].map(shellQuote).join(" ");
  const payload = `'{"hook_event_name":"StopFailure","error":"billing_error",` +
    `"last_assistant_message":"Credit balance too low"}'`;
  await t.ok("new", { name: "hooked", command: `echo ${payload} | ${hook} error; sleep 60` });
  await t.ok<WaitReply>("wait", { target: "hooked", state: "error", timeout: 60 });
  const [entry] = (await t.ok<{ sessions: SessionEntry[] }>("list")).sessions;
  assert.deepEqual([entry!.state, entry!.kind, entry!.source, entry!.msg], [
    "error",
    "quota",
    "hook",
    "Credit balance too low",
  ]);
});
