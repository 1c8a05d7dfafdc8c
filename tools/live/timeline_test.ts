import assert from "node:assert/strict";
import { type Expected, judge, type Observed, render } from "./timeline.ts";

const ex = (t: number, state: string): Expected => ({ t, state, note: state, source: "screen" });
const ob = (t: number, state: string, ruleId = "r"): Observed => ({
  t,
  state,
  kind: state === "blocked" ? "permission" : null,
  source: "screen",
  ruleId,
  seq: t,
});

Deno.test("judge: latency from the prompt on screen to blocked", () => {
  const v = judge(
    [ex(0, "idle"), ex(1000, "working"), ex(5000, "blocked"), ex(9000, "working")],
    [ob(0, "idle"), ob(1100, "working"), ob(5400, "blocked"), ob(9100, "working")],
  );
  assert.deepEqual(v.blocked.map((b) => b.latencyMs), [400]);
  assert.deepEqual(v.falseBlocked, []);
});

Deno.test("judge: a blocked never observed is a miss; an unexplained one is false", () => {
  const v = judge(
    [ex(0, "working"), ex(5000, "blocked"), ex(9000, "working"), ex(20000, "done")],
    [ob(0, "working"), ob(12000, "blocked", "question-tail"), ob(13000, "working")],
  );
  assert.deepEqual(v.blocked.map((b) => b.latencyMs), [null]);
  assert.equal(v.falseBlocked.length, 1);
  assert.equal(v.falseBlocked[0]?.ruleId, "question-tail");
  assert.equal(v.missedDone.length, 1);
  const text = render([], [], v);
  assert.match(text, /MISS {5}blocked/);
  assert.match(text, /FALSE {4}blocked/);
});

Deno.test("judge: blocked already shown just before the screen label counts at 0 ms", () => {
  const v = judge([ex(5000, "blocked"), ex(8000, "idle")], [ob(4800, "blocked"), ob(8100, "idle")]);
  assert.deepEqual(v.blocked.map((b) => b.latencyMs), [0]);
  assert.deepEqual(v.falseBlocked, []);
});
