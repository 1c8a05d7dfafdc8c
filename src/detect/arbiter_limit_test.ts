/**
 * A usage limit through the arbiter (docs/limits.md): the screen's limit and
 * its reset reach the status from a screen rule, under a declared error
 * (Codex's bare `state=error`), and under a hook's failed turn (Claude's
 * StopFailure `rate_limit`, which names no reset).
 */

import assert from "node:assert/strict";
import { type Evidence, initialState, reduce } from "./arbiter.ts";
import { parseRecord } from "./osc7501.ts";

const RESET = Date.parse("2026-12-02T09:00:00Z");
const limitScreen: Evidence = {
  type: "screen",
  result: {
    state: "error",
    kind: "limit",
    ruleId: "usage-limit",
    visibleBlocker: false,
    msg: "You've hit your 5-hour limit",
    resets: "1am (America/Los_Angeles)",
    resetsAt: RESET,
  },
};

function fold(...steps: Evidence[]) {
  let s = initialState();
  steps.forEach((e, i) => (s = reduce(s, e, 1000 * (i + 1))));
  return s.status!;
}

const view = (st: ReturnType<typeof fold>) => [st.state, st.kind, st.source, st.msg, st.resetsAt];

Deno.test("arbiter: a screen limit carries its reset", () => {
  assert.deepEqual(view(fold(limitScreen)), [
    "error",
    "limit",
    "screen",
    "You've hit your 5-hour limit",
    RESET,
  ]);
});

Deno.test("arbiter: a declared error takes the screen's limit and reset", () => {
  const declared: Evidence = { type: "declare", records: [parseRecord("state=error")!] };
  assert.deepEqual(view(fold(declared, limitScreen)), [
    "error",
    "limit",
    "declared",
    "You've hit your 5-hour limit",
    RESET,
  ]);
});

Deno.test("arbiter: a hook's failed turn (StopFailure rate_limit) is a limit when the screen says so", () => {
  const stopFailure: Evidence = {
    type: "hook",
    event: { state: "error", kind: "rate_limit", msg: "API Error: 429", event: "StopFailure" },
  };
  assert.deepEqual(view(fold(stopFailure, limitScreen)), [
    "error",
    "limit",
    "hook",
    "You've hit your 5-hour limit",
    RESET,
  ]);
  // Without a limit on screen it stays what the hook said.
  const plain = fold(stopFailure);
  assert.deepEqual([plain.kind, plain.msg, plain.resetsAt], [
    "rate_limit",
    "API Error: 429",
    undefined,
  ]);
});

Deno.test("arbiter: a declared idle with a usage limit on screen is the limit (Claude after Esc cancelled its continue)", () => {
  // Claude Code 2.1.332 at its weekly limit: Esc cancels its automatic continue and it declares
  // `state=idle`; the limit and its reset stay on screen (tests/limit_rules_test.ts).
  const idle: Evidence = { type: "declare", records: [parseRecord("state=idle")!] };
  const error: Evidence = { type: "declare", records: [parseRecord("state=error")!] };
  assert.deepEqual(view(fold(error, limitScreen, idle)), [
    "error",
    "limit",
    "screen",
    "You've hit your 5-hour limit",
    RESET,
  ]);
  // With no limit on screen, a declared idle is idle.
  assert.deepEqual(view(fold(idle)).slice(0, 3), ["idle", null, "declared"]);
});
