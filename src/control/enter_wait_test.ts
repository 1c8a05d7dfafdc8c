import assert from "node:assert/strict";
import { ENTER_GAP_MS, type EnterStep, EnterWait, READ_WAIT_MS, SAMPLE_MS } from "./enter_wait.ts";

/** Drives a wait from `t0` with `unreadAt(t)` as the queue; returns when Enter may go. */
function run(unreadAt: (t: number) => number | null, t0 = 1000): { at: number; step: EnterStep } {
  const wait = new EnterWait(t0);
  let at = t0;
  for (let i = 0; i < 10_000; i++) {
    const step = wait.next(at, unreadAt(at - t0));
    if (step.type === "enter") return { at: at - t0, step };
    assert.ok(step.ms > 0 && step.ms <= ENTER_GAP_MS, `wait ${step.ms}`);
    at += step.ms;
  }
  throw new Error("never");
}

Deno.test("a child that read the text at once: Enter ENTER_GAP_MS after the write", () => {
  const { at, step } = run(() => 0);
  assert.equal(at, ENTER_GAP_MS);
  assert.deepEqual(step, { type: "enter", readAt: 1000 });
});

Deno.test("a child that reads the text late: Enter ENTER_GAP_MS after its read, not after the write", () => {
  // Unread (140 bytes) for the first 600 ms: the old fixed gap would have queued Enter behind it.
  const { at, step } = run((t) => t < 600 ? 140 : 0);
  assert.ok(at >= 600 + ENTER_GAP_MS && at < 600 + ENTER_GAP_MS + SAMPLE_MS, `at ${at}`);
  assert.equal(step.type === "enter" && step.readAt !== null && step.readAt - 1000 >= 600, true);
});

Deno.test("text that reaches the terminal's queue only after the first samples still counts", () => {
  // Empty at first (the bytes not passed on yet), then queued 5–300 ms, then read.
  const { at } = run((t) => t >= 5 && t < 300 ? 140 : 0);
  assert.ok(at >= 300 + ENTER_GAP_MS, `at ${at}`);
});

Deno.test("a child that reads in parts: the gap counts from its last read", () => {
  const { at } = run((t) => t < 200 ? 140 : t < 400 ? 60 : 0);
  assert.ok(at >= 400 + ENTER_GAP_MS && at < 400 + ENTER_GAP_MS + SAMPLE_MS, `at ${at}`);
});

Deno.test("a child that never reads: Enter anyway after READ_WAIT_MS", () => {
  const { at, step } = run(() => 140);
  assert.ok(at >= READ_WAIT_MS && at < READ_WAIT_MS + SAMPLE_MS, `at ${at}`);
  assert.deepEqual(step, { type: "enter", readAt: null });
});

Deno.test("a queue that cannot be read: the fixed gap from the write", () => {
  const wait = new EnterWait(0);
  assert.deepEqual(wait.next(0, null), { type: "wait", ms: ENTER_GAP_MS });
  assert.deepEqual(wait.next(100, null), { type: "wait", ms: ENTER_GAP_MS - 100 });
  assert.deepEqual(wait.next(ENTER_GAP_MS, null), { type: "enter", readAt: null });
});
