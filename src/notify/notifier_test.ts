import assert from "node:assert/strict";
import type { AgentStatus } from "../model/agent.ts";
import { Notifier, type NotifierOptions } from "./notifier.ts";
import { limitEpisodeKey } from "./episodes.ts";

function status(
  state: AgentStatus["state"],
  msg: string | null = null,
  seq = 1,
  kind: AgentStatus["kind"] = null,
): AgentStatus {
  return { state, kind, source: "declared", ruleId: "osc7501", seq, since: 0, msg };
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
    t.notifier.agentState(api, status("blocked", "approve Bash: touch lab-file.txt")),
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
  t.notifier.agentState(api, status("working"));
  t.notifier.agentState(api, status("done"));
  assert.deepEqual(t.written, [
    "\x1bPtmux;\x1b\x1b]9;api: done\x07\x1b\\" +
    "\x1bPtmux;\x1b\x1b]777;notify;lazyshell;api: done\x07\x1b\\",
  ]);
  await t.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier ignores other states and updates within one episode", async () => {
  const t = setup();
  assert.equal(t.notifier.agentState(api, status("working")), null);
  assert.equal(t.notifier.agentState(api, status("idle")), null);
  assert.equal(t.notifier.agentState(api, status("blocked", "a")), "sent");
  // The same prompt told by stronger evidence (hook, then declared) is not news.
  assert.equal(t.notifier.agentState(api, { ...status("blocked", "a", 2), source: "hook" }), null);
  assert.equal(t.written.length, 1);
  await t.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier: a flapping prompt with no answer notifies once, however long", async () => {
  const t = setup();
  const outcomes = [];
  for (let i = 0; i < 5; i++) {
    outcomes.push(t.notifier.agentState(api, status("blocked")));
    t.notifier.agentState(api, status("working"));
    t.advance(60_000);
  }
  assert.deepEqual(outcomes, ["sent", null, null, null, null]);
  // Another state and another session have their own episodes.
  assert.equal(t.notifier.agentState(api, status("done")), "sent");
  assert.equal(t.notifier.agentState({ id: "session-2", name: "web" }, status("blocked")), "sent");
  await t.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier: input alone, or work alone, does not end an episode", async () => {
  const t = setup();
  assert.equal(t.notifier.agentState(api, status("blocked")), "sent");
  t.notifier.input(api.id, false);
  assert.equal(t.notifier.agentState(api, status("blocked", null, 2)), null);
  assert.equal(t.notifier.agentState(api, status("done")), "sent");
  t.notifier.agentState(api, status("working"));
  assert.equal(t.notifier.agentState(api, status("done")), null, "worked, no input: a flap");
  await t.notifier[Symbol.asyncDispose]();
});

/**
 * The sequence of a Claude Code session driven through `ctl send --enter`: a
 * question, answered; an approval a few seconds later; two turns done 20 s
 * and 11 s apart. Each is news: one notification each, whoever typed.
 */
for (const typed of [false, true]) {
  const who = typed ? "a person" : "ctl send";
  Deno.test(`Notifier: every new request notifies at once, answered by ${who}`, async () => {
    const t = setup();
    const sent: string[] = [];
    using _ = t.notifier.on((n, outcome) => outcome === "sent" && sent.push(n.text));
    const step = (state: AgentStatus["state"], kind: AgentStatus["kind"] = null) =>
      t.notifier.agentState(api, { ...status(state), kind, source: "screen" });
    step("working");
    step("blocked", "question");
    step("working"); // a redraw: no answer yet
    step("blocked", "question");
    t.advance(3000);
    t.notifier.input(api.id, typed); // the answer
    step("working");
    t.advance(4000);
    step("blocked", "permission"); // approve Bash
    t.notifier.input(api.id, typed);
    step("working");
    t.advance(5000);
    step("done");
    step("idle");
    step("done"); // the summary redrawn
    t.advance(20_000);
    t.notifier.input(api.id, typed); // the next prompt
    step("working");
    step("done");
    t.advance(11_000);
    t.notifier.input(api.id, typed);
    step("working");
    step("blocked", "permission"); // the same kind of prompt, a new request
    t.notifier.input(api.id, typed);
    step("working");
    step("done");
    assert.deepEqual(sent, [
      "api: needs you",
      "api: needs you",
      "api: done",
      "api: done",
      "api: needs you",
      "api: done",
    ]);
    await t.notifier[Symbol.asyncDispose]();
  });
}

Deno.test("Notifier: the next prompt after an answer is news, even with no state between", async () => {
  const t = setup();
  assert.equal(t.notifier.agentState(api, status("blocked", "approve Bash: ls")), "sent");
  // Claude's Notification hook, 6 s after its PermissionRequest: another text, the same prompt.
  assert.equal(t.notifier.agentState(api, status("blocked", "needs your permission", 2)), null);
  t.notifier.input(api.id, false);
  assert.equal(t.notifier.agentState(api, status("blocked", "needs your permission", 2)), null);
  assert.equal(t.notifier.agentState(api, status("blocked", "approve Edit: a.ts", 3)), "sent");
  await t.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier: a different prompt after work, answered elsewhere, is news; the same is not", async () => {
  const t = setup();
  const ask = (msg: string | null, kind: AgentStatus["kind"] = "permission", seq = 1) =>
    t.notifier.agentState(api, status("blocked", msg, seq, kind));
  const work = () => t.notifier.agentState(api, status("working"));
  assert.equal(ask("approve Bash: ls"), "sent");
  // Approved from the phone app: nobody typed here. The agent works, asks again.
  work();
  assert.equal(ask("approve Bash: ls"), null, "the same prompt back: a flap");
  work();
  assert.equal(ask(null), null, "the same kind, read without its text: the same prompt");
  work();
  assert.equal(ask("approve Edit: a.ts"), "sent", "another message after work");
  work();
  assert.equal(ask(null, "question"), "sent", "another kind after work");
  // Without work in between another text is the same prompt's evidence changing.
  assert.equal(ask("which file?", "question"), null);
  assert.equal(ask("Which file should I edit?", "question"), null);
  work();
  assert.equal(ask("which file?", "question"), null, "a text it showed before: a flap");
  await t.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier: failed commands keep the rate limit, typing starts it over", async () => {
  const t = setup();
  const failed = { sessionId: api.id, sessionName: api.name, reason: "failed" as const, text: "x" };
  assert.equal(t.notifier.notify(failed), "sent");
  assert.equal(t.notifier.notify(failed), "limited");
  t.notifier.input(api.id, false);
  assert.equal(t.notifier.notify(failed), "limited");
  t.notifier.input(api.id, true);
  assert.equal(t.notifier.notify(failed), "sent");
  await t.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier stays quiet for the session the user types into", async () => {
  const t = setup();
  t.setFocus({ selected: api.id, terminal: true });
  assert.equal(t.notifier.agentState(api, status("blocked", "a")), "watching");
  // Looking at it in navigation mode is not typing into it. (The prompt the
  // user saw, flapping after they left, is not news.)
  t.setFocus({ selected: api.id, terminal: false });
  t.notifier.agentState(api, status("working"));
  assert.equal(t.notifier.agentState(api, status("blocked", "a")), null);
  t.notifier.input(api.id, false);
  assert.equal(t.notifier.agentState(api, status("blocked", "b")), "sent");
  t.setFocus({ selected: "session-2", terminal: true });
  assert.equal(t.notifier.agentState(api, status("done")), "sent");
  assert.equal(t.written.length, 2);
  await t.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier without a sink or a command has no channel", async () => {
  const t = setup({ sink: null });
  assert.equal(t.notifier.agentState(api, status("blocked")), "no-channel");
  await t.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier runs the fallback command with the text on stdin, not OSC", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = `${dir}/out`;
    const t = setup({
      fallbackCommand: `cat > '${out}'; printf '%s' "$LAZYSHELL_NOTIFY_REASON" > '${out}.reason'`,
    });
    assert.equal(t.notifier.agentState(api, status("blocked", "approve Bash: ls")), "sent");
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
  t.notifier.agentState(api, status("working"));
  assert.equal(t.notifier.agentState(api, status("done")), "sent");
  await t.notifier.idle();
  assert.equal(t.logs.length, 1);
  assert.match(t.logs[0]!, /^Notification command exited with 3: no display: echo/);
  await t.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier kills a hanging fallback command past its bound", async () => {
  const t = setup({ fallbackCommand: "exec sleep 60", commandTimeoutMs: 300 });
  t.notifier.agentState(api, status("working"));
  assert.equal(t.notifier.agentState(api, status("done")), "sent");
  await t.notifier.idle();
  assert.deepEqual(t.logs, ["Notification command killed after 300 ms: exec sleep 60"]);
  await t.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier does not wait for a backgrounded grandchild holding stderr", async () => {
  const t = setup({ fallbackCommand: "cat >/dev/null; sleep 5 & exit 0" });
  t.notifier.agentState(api, status("working"));
  t.notifier.agentState(api, status("done"));
  await t.notifier.idle();
  assert.deepEqual(t.logs, []);
  await t.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier bounds the commands running at once", async () => {
  const t = setup({ fallbackCommand: "exec sleep 60", maxPending: 2, commandTimeoutMs: 10_000 });
  const outcomes = ["s1", "s2", "s3"].map((id) => {
    t.notifier.agentState({ id, name: id }, status("working"));
    return t.notifier.agentState({ id, name: id }, status("done"));
  });
  assert.deepEqual(outcomes, ["sent", "sent", "busy"]);
  await t.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier: a failed turn notifies once, with why, until input and a new turn", async () => {
  const t = setup();
  const failed = status("error", "Request rejected (429)", 3, "rate_limit");
  t.notifier.agentState(api, status("working"));
  assert.equal(t.notifier.agentState(api, failed), "sent");
  // The hook confirming it, or the reason changing, is the same failure.
  assert.equal(t.notifier.agentState(api, { ...failed, seq: 4, source: "hook" }), null);
  assert.equal(t.notifier.agentState(api, status("error", "Rate limited", 5, "rate_limit")), null);
  assert.deepEqual(t.written, [
    "\x1b]9;api: failed — rate limited (429)\x07" +
    "\x1b]777;notify;lazyshell;api: failed — rate limited (429)\x07",
  ]);
  // A flap back through working with no input in between is the same failed turn.
  t.notifier.agentState(api, status("working"));
  assert.equal(t.notifier.agentState(api, status("error")), null);
  // Input, then a new turn that fails: news again.
  t.notifier.input(api.id, false);
  t.notifier.agentState(api, status("working"));
  assert.equal(t.notifier.agentState(api, status("error")), "sent");
  await t.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier: a done or a failure shown before any turn of the session is not news", async () => {
  // A resumed agent (`claude --resume`) redraws its last turn's "✻ Worked for 26s" and errors.
  const t = setup();
  assert.equal(t.notifier.agentState(api, status("done", null, 1)), null);
  assert.equal(t.notifier.agentState(api, status("error", "Request rejected (429)", 2)), null);
  assert.equal(t.notifier.agentState(api, status("idle", null, 3)), null);
  assert.deepEqual(t.written, []);
  // Its first turn of its own is: input, work, done.
  t.notifier.input(api.id, true);
  t.notifier.agentState(api, status("working", null, 4));
  assert.equal(t.notifier.agentState(api, status("done", null, 5)), "sent");
  // Input alone is a turn too (a turn too quick to be seen working).
  const web = { id: "session-2", name: "web" };
  t.notifier.agentState(web, status("idle"));
  t.notifier.input(web.id, false);
  assert.equal(t.notifier.agentState(web, status("done", null, 2)), "sent");
  await t.notifier[Symbol.asyncDispose]();
});

/** A usage limit as the screen rules read it (docs/limits.md). */
function limit(resetsAt: number, msg: string, seq: number): AgentStatus {
  return { ...status("error", msg, seq, "limit"), source: "screen", resetsAt };
}

Deno.test("Notifier: a restored session showing the limit it had is not notified again", async () => {
  // Live (docs/limits.md, Live checks): Codex resumed by `lazyshell restore` draws its limit
  // line again from its transcript. The new server's notifier learns the pending resume's limit.
  const t = setup();
  const at = Date.UTC(2026, 11, 2, 17, 15);
  const msg = "You've hit your usage limit";
  t.notifier.continueLimit(api.id, limitEpisodeKey(at, msg));
  t.notifier.agentState(api, status("idle", null, 1));
  t.notifier.agentState(api, status("working", null, 2));
  assert.equal(t.notifier.agentState(api, limit(at, msg, 3)), null);
  // Once only: after a resume was typed and the agent worked, the limit back is news.
  t.notifier.input(api.id, false);
  t.notifier.agentState(api, status("working", null, 4));
  assert.equal(t.notifier.agentState(api, limit(at, msg, 5)), "sent");
  // Another limit (another reset) after a restore is news.
  const u = setup();
  u.notifier.continueLimit(api.id, limitEpisodeKey(at, msg));
  u.notifier.agentState(api, status("working", null, 1));
  assert.equal(u.notifier.agentState(api, limit(at + 3_600_000, msg, 2)), "sent");
  await t.notifier[Symbol.asyncDispose]();
  await u.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier: the failure left by lazyshell's own answer to a limit's dialog is the same episode", async () => {
  // Gemini CLI 0.61.0 (fixtures/captures/gemini-limit-dialog): "2" (Stop) leaves
  // "✕ [API Error: Quota exceeded …]" over the prompt, read error/quota.
  const t = setup();
  const at = Date.UTC(2026, 11, 2, 17, 12);
  t.notifier.agentState(api, status("working", null, 1));
  assert.equal(
    t.notifier.agentState(api, limit(at, "Usage limit reached for gemini-2.5-flash", 2)),
    "sent",
  );
  // The resume runner writes "2": input, and the agent redraws (a working blip).
  t.notifier.input(api.id, false);
  t.notifier.limitDismissed(api.id);
  t.notifier.agentState(api, status("working", null, 3));
  const quota = status("error", "Quota exceeded", 4, "quota");
  assert.equal(t.notifier.agentState(api, quota), null);
  // The continue text typed: its turn starts under the error line, read again before it goes.
  t.notifier.input(api.id, false);
  t.notifier.agentState(api, status("working", null, 5));
  assert.equal(t.notifier.agentState(api, { ...quota, seq: 6 }), null);
  // A turn done: a failure after it is news again.
  t.notifier.agentState(api, status("working", null, 6));
  t.notifier.agentState(api, status("done", null, 6));
  t.notifier.input(api.id, true);
  t.notifier.agentState(api, status("working", null, 7));
  assert.equal(t.notifier.agentState(api, { ...quota, seq: 8 }), "sent");
  await t.notifier[Symbol.asyncDispose]();
});

Deno.test("Notifier: a limit back after lazyshell answered the dialog and typed is news", async () => {
  const t = setup();
  const at = Date.UTC(2026, 11, 2, 17, 12);
  t.notifier.agentState(api, limit(at, "Usage limit reached", 1));
  t.notifier.input(api.id, false);
  t.notifier.limitDismissed(api.id);
  t.notifier.agentState(api, status("working", null, 2));
  assert.equal(t.notifier.agentState(api, limit(at + 60_000, "Usage limit reached", 3)), "sent");
  await t.notifier[Symbol.asyncDispose]();
});
