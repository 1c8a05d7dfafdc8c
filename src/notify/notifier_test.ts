import assert from "node:assert/strict";
import type { AgentStatus } from "../model/agent.ts";
import { Notifier, type NotifierOptions } from "./notifier.ts";

function status(state: AgentStatus["state"], msg: string | null = null, seq = 1): AgentStatus {
  return { state, kind: null, source: "declared", ruleId: "osc7501", seq, since: 0, msg };
}

function setup(options: NotifierOptions = {}) {
  let now = 1_000_000;
  const written: string[] = [];
  const logs: string[] = [];
  let focus = { selected: null as string | null, terminal: false };
  const notifier = new Notifier({
    sink: (bytes) => written.push(bytes),
    now: () => now,
    focus: () => focus,
    log: (line) => logs.push(line),
    rateLimitSeconds: 30,
    ...options,
  });
  return {
    notifier,
    written,
    logs,
    advance: (ms: number) => (now += ms),
    setFocus: (f: typeof focus) => (focus = f),
  };
}

const api = { id: "session-1", name: "api" };

Deno.test("Notifier writes OSC 9 and OSC 777 on entering blocked, with the msg", async () => {
  const t = setup();
  assert.equal(
    t.notifier.agentState(api, status("blocked", "approve Bash: touch lab-file.txt"), null),
    "sent",
  );
  assert.deepEqual(t.written, [
    "\x1b]9;api: needs you — approve Bash: touch lab-file.txt\x07" +
    "\x1b]777;notify;lazyshell;api: needs you — approve Bash: touch lab-file.txt\x07",
  ]);
  await t.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier wraps for tmux passthrough when asked", async () => {
  const t = setup({ tmux: true });
  t.notifier.agentState(api, status("done"), status("working"));
  assert.deepEqual(t.written, [
    "\x1bPtmux;\x1b\x1b]9;api: done\x07\x1b\\" +
    "\x1bPtmux;\x1b\x1b]777;notify;lazyshell;api: done\x07\x1b\\",
  ]);
  await t.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier ignores other states and same-state updates", async () => {
  const t = setup();
  assert.equal(t.notifier.agentState(api, status("working"), status("idle")), null);
  assert.equal(t.notifier.agentState(api, status("idle"), status("done")), null);
  assert.equal(t.notifier.agentState(api, status("blocked", "b", 2), status("blocked", "a")), null);
  assert.equal(t.written.length, 0);
  await t.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier rate-limits a flapping state per session and state", async () => {
  const t = setup();
  const outcomes = [];
  for (let i = 0; i < 5; i++) {
    outcomes.push(t.notifier.agentState(api, status("blocked"), status("working")));
    t.notifier.agentState(api, status("working"), status("blocked"));
    t.advance(1000);
  }
  assert.deepEqual(outcomes, ["sent", "limited", "limited", "limited", "limited"]);
  // Another state and another session are limited on their own.
  assert.equal(t.notifier.agentState(api, status("done"), status("working")), "sent");
  assert.equal(
    t.notifier.agentState({ id: "session-2", name: "web" }, status("blocked"), null),
    "sent",
  );
  t.advance(30_000);
  assert.equal(t.notifier.agentState(api, status("blocked"), status("working")), "sent");
  assert.equal(t.written.length, 4);
  await t.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier: an answered session notifies its next request at once", async () => {
  const t = setup();
  assert.equal(t.notifier.agentState(api, status("blocked"), null), "sent");
  t.advance(2000);
  t.notifier.answered(api.id);
  assert.equal(t.notifier.agentState(api, status("blocked"), status("working")), "sent");
  await t.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier stays quiet for the session the user types into", async () => {
  const t = setup();
  t.setFocus({ selected: api.id, terminal: true });
  assert.equal(t.notifier.agentState(api, status("blocked"), null), "watching");
  // Looking at it in navigation mode is not typing into it.
  t.setFocus({ selected: api.id, terminal: false });
  assert.equal(t.notifier.agentState(api, status("blocked"), null), "sent");
  t.setFocus({ selected: "session-2", terminal: true });
  assert.equal(t.notifier.agentState(api, status("done"), null), "sent");
  assert.equal(t.written.length, 2);
  await t.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier without a sink or a command has no channel", async () => {
  const t = setup({ sink: null });
  assert.equal(t.notifier.agentState(api, status("blocked"), null), "no-channel");
  await t.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier runs the fallback command with the text on stdin, not OSC", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = `${dir}/out`;
    const t = setup({
      fallbackCommand: `cat > '${out}'; printf '%s' "$LAZYSHELL_NOTIFY_REASON" > '${out}.reason'`,
    });
    assert.equal(t.notifier.agentState(api, status("blocked", "approve Bash: ls"), null), "sent");
    await t.notifier.idle();
    assert.equal(await Deno.readTextFile(out), "api: needs you — approve Bash: ls\n");
    assert.equal(await Deno.readTextFile(`${out}.reason`), "blocked");
    assert.deepEqual(t.written, []);
    assert.deepEqual(t.logs, []);
    await t.notifier[Symbol.asyncDispose]();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Notifier logs a failing fallback command with its stderr, never throws", async () => {
  const t = setup({ fallbackCommand: "echo 'no display' >&2; exit 3" });
  assert.equal(t.notifier.agentState(api, status("done"), null), "sent");
  await t.notifier.idle();
  assert.equal(t.logs.length, 1);
  assert.match(t.logs[0]!, /^Notification command exited with 3: no display: echo/);
  await t.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier kills a hanging fallback command past its bound", async () => {
  const t = setup({ fallbackCommand: "exec sleep 60", commandTimeoutMs: 300 });
  assert.equal(t.notifier.agentState(api, status("done"), null), "sent");
  await t.notifier.idle();
  assert.deepEqual(t.logs, ["Notification command killed after 300 ms: exec sleep 60"]);
  await t.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier does not wait for a backgrounded grandchild holding stderr", async () => {
  const t = setup({ fallbackCommand: "cat >/dev/null; sleep 5 & exit 0" });
  t.notifier.agentState(api, status("done"), null);
  await t.notifier.idle();
  assert.deepEqual(t.logs, []);
  await t.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier bounds the commands running at once", async () => {
  const t = setup({ fallbackCommand: "exec sleep 60", maxPending: 2, commandTimeoutMs: 10_000 });
  const outcomes = ["s1", "s2", "s3"].map((id) =>
    t.notifier.agentState({ id, name: id }, status("done"), null)
  );
  assert.deepEqual(outcomes, ["sent", "sent", "busy"]);
  await t.notifier[Symbol.asyncDispose]();
});
