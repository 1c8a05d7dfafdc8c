import assert from "node:assert/strict";
import type { AgentStatus } from "../model/agent.ts";
import { formatDuration, TurnTracker } from "./turns.ts";

const st = (state: AgentStatus["state"], since: number): AgentStatus => ({
  state,
  kind: null,
  source: "screen",
  ruleId: "r",
  seq: 1,
  since,
  msg: null,
});

Deno.test("TurnTracker: a turn runs from entering working to leaving it", () => {
  const t = new TurnTracker();
  assert.deepEqual(t.turn("s", 0), { working: false, current: null, last: null, count: 0 });
  t.transition("s", st("working", 1000), st("idle", 0), 1000);
  assert.deepEqual(t.turn("s", 93_000), { working: true, current: 92_000, last: null, count: 1 });
  // blocked inside a turn ends it (the agent waits for you, not for itself).
  t.transition("s", st("blocked", 10_000), st("working", 1000), 10_000);
  assert.deepEqual(t.turn("s", 20_000), { working: false, current: null, last: 9000, count: 1 });
  t.transition("s", st("working", 30_000), st("blocked", 10_000), 30_000);
  t.transition("s", st("working", 31_000), st("working", 30_000), 31_000);
  t.transition("s", st("done", 35_000), st("working", 30_000), 35_000);
  assert.deepEqual(t.turn("s", 40_000), { working: false, current: null, last: 5000, count: 2 });
});

Deno.test("TurnTracker: exit ends a running turn", () => {
  const t = new TurnTracker();
  t.transition("s", st("working", 1000), null, 1000);
  t.ended("s", 4000);
  assert.deepEqual(t.turn("s", 9000), { working: false, current: null, last: 3000, count: 1 });
});

Deno.test("formatDuration() as in the session list", () => {
  assert.equal(formatDuration(0), "0s");
  assert.equal(formatDuration(45_900), "45s");
  assert.equal(formatDuration(92_000), "1m32s");
  assert.equal(formatDuration(65_000), "1m05s");
  assert.equal(formatDuration(2 * 3600_000 + 5 * 60_000), "2h05m");
});
