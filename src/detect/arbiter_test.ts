import assert from "node:assert/strict";
import { type ArbiterState, type Evidence, initialState, nextCheckAt, reduce } from "./arbiter.ts";
import { parseRecord } from "./osc7501.ts";
import type { RuleResult } from "./rules.ts";

const screen = (
  state: RuleResult["state"],
  ruleId: string,
  extra: Partial<RuleResult> = {},
): Evidence => ({
  type: "screen",
  result: { state, kind: null, ruleId, visibleBlocker: false, msg: null, ...extra },
});
const blocker: Evidence = screen("blocked", "menu", { kind: "permission", visibleBlocker: true });
const declare = (...p: string[]): Evidence => ({
  type: "declare",
  records: p.map((x) => parseRecord(x)!),
});
const hook = (
  state: "idle" | "working" | "blocked" | "done" | "error",
  event: string,
): Evidence => ({
  type: "hook",
  event: { state, kind: state === "blocked" ? "permission" : null, msg: null, event },
});
const typed = (interrupt = false): Evidence => ({ type: "typed", interrupt });

/** [time, evidence, expected "state/source/ruleId" or null] */
type Step = [number, Evidence, string | null];

function run(steps: Step[], turnEnd: "idle" | "done" = "idle"): ArbiterState {
  let s = initialState({ turnEnd });
  for (const [i, [t, e, want]] of steps.entries()) {
    s = reduce(s, e, t);
    const got = s.status ? `${s.status.state}/${s.status.source}/${s.status.ruleId}` : null;
    assert.equal(got, want, `step ${i} (${e.type} at ${t})`);
  }
  return s;
}

const scenarios: [string, Step[], ("idle" | "done")?][] = [
  ["screen only: a turn with a prompt and a completion line", [
    [0, screen("idle", "idle-prompt"), "idle/screen/idle-prompt"],
    [100, screen("working", "working"), "working/screen/working"],
    [200, blocker, "blocked/screen/menu"],
    [300, screen("working", "working"), "working/screen/working"],
    [400, screen("done", "turn-complete"), "done/screen/turn-complete"],
    [500, screen("done", "turn-complete"), "done/screen/turn-complete"],
    [600, typed(), "idle/input/typed"],
    [700, screen("done", "turn-complete"), "idle/input/typed"],
    [800, screen("working", "working"), "working/screen/working"],
  ]],
  ["screen only: a prose question ends the turn idle, not blocked", [
    [0, screen("working", "working"), "working/screen/working"],
    [100, screen("idle", "fallback"), "idle/screen/fallback"],
  ]],
  ["turn_end done: working → idle reads done, until typed", [
    [0, screen("working", "working-title"), "working/screen/working-title"],
    [100, screen("idle", "ready-title"), "done/screen/turn-end"],
    [200, screen("idle", "ready-title"), "done/screen/turn-end"],
    [300, typed(), "idle/input/typed"],
  ], "done"],
  ["turn_end done: an interrupt ends the turn idle", [
    [0, screen("working", "working-title"), "working/screen/working-title"],
    [100, typed(true), "working/screen/working-title"],
    [200, screen("idle", "ready-title"), "idle/screen/ready-title"],
  ], "done"],
  ["turn_end done: an Esc from ctl send ends the turn idle too (qwen, tools/live)", [
    [0, screen("working", "working-title"), "working/screen/working-title"],
    [100, { type: "scripted-interrupt" }, "working/screen/working-title"],
    [200, screen("idle", "ready-title"), "idle/screen/ready-title"],
  ], "done"],
  ["a scripted interrupt is not the user looking: done stays", [
    [0, screen("working", "working-title"), "working/screen/working-title"],
    [100, screen("idle", "ready-title"), "done/screen/turn-end"],
    [200, { type: "scripted-interrupt" }, "done/screen/turn-end"],
    [300, screen("idle", "ready-title"), "done/screen/turn-end"],
  ], "done"],
  ["hook: an idle report after done (Claude's idle_prompt, 60 s later) keeps done until typed", [
    [0, hook("working", "UserPromptSubmit"), "working/hook/hook:UserPromptSubmit"],
    [100, hook("done", "Stop"), "done/hook/hook:Stop"],
    [60_100, hook("idle", "Notification"), "done/hook/hook:Stop"],
    [60_200, typed(), "idle/input/typed"],
    [60_300, hook("working", "UserPromptSubmit"), "working/hook/hook:UserPromptSubmit"],
  ]],
  ["declared outranks hook and screen, and counts without an agent", [
    [0, screen("idle", "idle-prompt"), "idle/screen/idle-prompt"],
    [100, declare("state=blocked:kind=permission"), "blocked/declared/osc7501"],
    [200, hook("working", "PostToolUse"), "blocked/declared/osc7501"],
    [300, screen("working", "working"), "blocked/declared/osc7501"],
    [400, declare("state=clear"), "working/hook/hook:PostToolUse"],
  ]],
  ["declared lifetimes: 133;A clears blocked, done stays until typed", [
    [0, declare("state=blocked"), "blocked/declared/osc7501"],
    [100, { type: "prompt" }, "idle/process/osc133:A"],
    [200, declare("state=done"), "done/declared/osc7501"],
    [300, { type: "prompt" }, "done/declared/osc7501"],
    [400, typed(), "idle/input/typed"],
  ]],
  ["state=clear ends any declaration, done and error too (docs/detection.md)", [
    [0, declare("state=done"), "done/declared/osc7501"],
    [100, declare("state=clear"), "idle/declared/osc7501:clear"],
    [200, declare("state=error"), "error/declared/osc7501"],
    [300, declare("state=clear"), "idle/declared/osc7501:clear"],
    [400, declare("state=blocked"), "blocked/declared/osc7501"],
    [500, declare("state=clear"), "idle/declared/osc7501:clear"],
  ]],
  ["screen error: a failed turn stays error until typed, whatever the screen does", [
    [0, screen("working", "retrying"), "working/screen/retrying"],
    [100, screen("error", "api-error"), "error/screen/api-error"],
    [200, screen("idle", "idle-prompt"), "error/screen/api-error"],
    [300, screen("error", "api-error"), "error/screen/api-error"],
    [400, typed(), "idle/input/typed"],
    [500, screen("error", "api-error"), "idle/input/typed"],
    [600, screen("working", "working"), "working/screen/working"],
  ]],
  ["screen error: a new turn replaces it without typing (ctl send)", [
    [0, screen("error", "api-error"), "error/screen/api-error"],
    [100, screen("working", "working"), "working/screen/working"],
    [200, screen("done", "turn-complete"), "done/screen/turn-complete"],
  ]],
  ["turn_end done: a failed turn is error, not done", [
    [0, screen("working", "working-title"), "working/screen/working-title"],
    [100, screen("error", "failed"), "error/screen/failed"],
    [200, screen("idle", "ready-title"), "error/screen/failed"],
  ], "done"],
  ["hook: StopFailure is error; an idle report after it keeps it until typed", [
    [0, hook("working", "UserPromptSubmit"), "working/hook/hook:UserPromptSubmit"],
    [100, hook("error", "StopFailure"), "error/hook/hook:StopFailure"],
    [60_100, hook("idle", "Notification"), "error/hook/hook:StopFailure"],
    [60_200, typed(), "idle/input/typed"],
  ]],
  ["declared error survives exit", [
    [0, declare("state=error"), "error/declared/osc7501"],
    [100, { type: "exit" }, "error/declared/osc7501"],
  ]],
  ["exit clears declared working", [
    [0, declare("state=working"), "working/declared/osc7501"],
    [100, { type: "exit" }, "idle/process/exit"],
  ]],
  ["hook latch: screen no longer moves the state", [
    [0, screen("working", "working"), "working/screen/working"],
    [100, hook("working", "UserPromptSubmit"), "working/hook/hook:UserPromptSubmit"],
    [200, screen("idle", "idle-prompt"), "working/hook/hook:UserPromptSubmit"],
    [
      300,
      screen("blocked", "text-question", { kind: "question" }),
      "working/hook/hook:UserPromptSubmit",
    ],
    [400, hook("done", "Stop"), "done/hook/hook:Stop"],
    [500, screen("working", "working"), "done/hook/hook:Stop"],
  ]],
  ["visible blocker overrides a stale hook working, reverts when it leaves", [
    [0, hook("working", "UserPromptSubmit"), "working/hook/hook:UserPromptSubmit"],
    [500, blocker, "working/hook/hook:UserPromptSubmit"],
    [2000, { type: "tick" }, "blocked/screen/menu"],
    [2500, blocker, "blocked/screen/menu"],
    [3000, screen("working", "working"), "working/hook/hook:UserPromptSubmit"],
  ]],
  ["visible blocker does not override a hook newer than the repaint", [
    [0, blocker, "blocked/screen/menu"],
    [100, hook("working", "PostToolUse"), "working/hook/hook:PostToolUse"],
    [5000, { type: "tick" }, "working/hook/hook:PostToolUse"],
  ]],
  ["a hook blocked is not overridden by anything on screen", [
    [0, hook("blocked", "PermissionRequest"), "blocked/hook/hook:PermissionRequest"],
    [100, screen("idle", "idle-prompt"), "blocked/hook/hook:PermissionRequest"],
  ]],
  ["interrupt: Esc while hook-working + settled output ends the turn", [
    [0, hook("working", "UserPromptSubmit"), "working/hook/hook:UserPromptSubmit"],
    [100, screen("working", "working"), "working/hook/hook:UserPromptSubmit"],
    [200, typed(true), "working/hook/hook:UserPromptSubmit"],
    [300, screen("idle", "idle-prompt"), "idle/input/interrupt"],
    [400, hook("working", "UserPromptSubmit"), "working/hook/hook:UserPromptSubmit"],
  ]],
  ["answered prompt: keys after a hook blocked, then no prompt on screen → working", [
    [0, hook("blocked", "PermissionRequest"), "blocked/hook/hook:PermissionRequest"],
    [100, blocker, "blocked/hook/hook:PermissionRequest"],
    [200, typed(), "blocked/hook/hook:PermissionRequest"],
    [300, blocker, "blocked/hook/hook:PermissionRequest"],
    [400, screen("working", "working"), "working/input/answered"],
    [500, hook("working", "PostToolUse"), "working/hook/hook:PostToolUse"],
  ]],
  ["denied prompt: Esc on a hook blocked, prompt gone → idle (no hook fires)", [
    [0, hook("blocked", "PermissionRequest"), "blocked/hook/hook:PermissionRequest"],
    [100, typed(true), "blocked/hook/hook:PermissionRequest"],
    [200, screen("idle", "idle-prompt"), "idle/input/interrupt"],
  ]],
  ["denied by a script: Esc from ctl send on a hook blocked, prompt gone → idle", [
    [0, hook("blocked", "PermissionRequest"), "blocked/hook/hook:PermissionRequest"],
    [100, { type: "scripted-interrupt" }, "blocked/hook/hook:PermissionRequest"],
    [200, screen("idle", "idle-prompt"), "idle/input/interrupt"],
  ]],
  ["a hook blocked with no keys typed stays blocked whatever the screen", [
    [0, hook("blocked", "PermissionRequest"), "blocked/hook/hook:PermissionRequest"],
    [100, screen("working", "working"), "blocked/hook/hook:PermissionRequest"],
  ]],
  ["Esc while idle is not an interrupt", [
    [0, hook("done", "Stop"), "done/hook/hook:Stop"],
    [100, typed(true), "idle/input/typed"],
    [200, screen("idle", "idle-prompt"), "idle/input/typed"],
  ]],
  ["a new agent in the foreground drops the latch", [
    [0, hook("working", "UserPromptSubmit"), "working/hook/hook:UserPromptSubmit"],
    [100, { type: "agent", agent: null }, "idle/process/exit"],
    [200, screen("working", "working"), "working/screen/working"],
  ]],
];

for (const [name, steps, turnEnd] of scenarios) {
  Deno.test(`arbiter: ${name}`, () => void run(steps, turnEnd));
}

Deno.test("arbiter: another rule saying the same thing updates ruleId, not seq", () => {
  let s = initialState();
  s = reduce(s, screen("working", "working-title"), 10);
  s = reduce(s, screen("working", "working"), 20);
  assert.deepEqual([s.status?.seq, s.status?.ruleId, s.status?.since], [1, "working", 10]);
});

Deno.test("arbiter: seq grows by one per change; since moves only with the state", () => {
  let s = initialState();
  s = reduce(s, screen("working", "working"), 10);
  assert.deepEqual([s.status?.seq, s.status?.since], [1, 10]);
  s = reduce(s, screen("working", "working"), 20);
  assert.deepEqual([s.status?.seq, s.status?.since], [1, 10], "no change, no seq");
  s = reduce(s, hook("working", "UserPromptSubmit"), 30);
  assert.deepEqual([s.status?.seq, s.status?.since, s.status?.source], [2, 10, "hook"]);
  s = reduce(s, hook("done", "Stop"), 40);
  assert.deepEqual([s.status?.seq, s.status?.since], [3, 40]);
});

Deno.test("arbiter: nextCheckAt names when a visible blocker goes stale", () => {
  let s = initialState();
  s = reduce(s, hook("working", "UserPromptSubmit"), 1000);
  s = reduce(s, blocker, 1500);
  assert.equal(nextCheckAt(s, 1500), 3000);
  s = reduce(s, { type: "tick" }, 3000);
  assert.equal(s.status?.state, "blocked");
  assert.equal(nextCheckAt(s, 3000), null);
});

Deno.test("arbiter: nothing to show without evidence", () => {
  let s = initialState();
  s = reduce(s, { type: "screen", result: null }, 0);
  assert.equal(s.status, null);
});

Deno.test("arbiter: a declared error takes the screen's kind, and its message when it has none", () => {
  let s = initialState();
  s = reduce(s, declare("state=error"), 0);
  assert.deepEqual([s.status?.kind, s.status?.msg], [null, null]);
  s = reduce(s, screen("error", "turn-failed", { kind: "quota", msg: "Quota exceeded." }), 10);
  assert.deepEqual(
    [s.status?.state, s.status?.source, s.status?.kind, s.status?.msg],
    ["error", "declared", "quota", "Quota exceeded."],
  );
  // A declaration with its own message keeps it; OSC 7501 has no error kinds: the screen's.
  s = reduce(s, declare(`state=error:msg=${btoa("API Error: 529")}`), 20);
  assert.deepEqual([s.status?.kind, s.status?.msg], ["quota", "API Error: 529"]);
});

Deno.test("arbiter: a screen error carries the rule's kind and message", () => {
  const s = reduce(
    initialState(),
    screen("error", "api-error", { kind: "rate_limit", msg: "Request rejected (429)" }),
    0,
  );
  assert.deepEqual(
    [s.status?.state, s.status?.kind, s.status?.msg],
    ["error", "rate_limit", "Request rejected (429)"],
  );
});
