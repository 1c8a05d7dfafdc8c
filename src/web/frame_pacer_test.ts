import assert from "node:assert/strict";
import fc from "fast-check";
import { FramePacer, type PacerOptions, TIMER_SLACK_MS } from "./frame_pacer.ts";

const OPTIONS: PacerOptions = { intervalMs: 100, maxDrainWaitMs: 1000 };

/**
 * Drives a pacer as the live connection does, on a clock of its own: the
 * screen changes at `changes` (ms), the socket drains while `draining(t)`;
 * the one timer fires when it is due. Returns when frames went.
 */
function run(
  options: PacerOptions,
  changes: readonly number[],
  draining: (t: number) => boolean = () => false,
): { frames: number[]; pacer: FramePacer; carried: Map<number, number> } {
  const pacer = new FramePacer(options);
  const frames: number[] = [];
  /** Each change (its index) → the time of the first frame sent after it. */
  const carried = new Map<number, number>();
  let waiting: number[] = [];
  let timer: number | null = null;
  const fire = (t: number) => {
    timer = null;
    const step = pacer.due(t, draining(t));
    if (step === "send") {
      frames.push(t);
      for (const i of waiting) carried.set(i, t);
      waiting = [];
    } else if (step !== null) timer = t + step.waitMs;
  };
  for (const [i, at] of [...changes].sort((a, b) => a - b).entries()) {
    while (timer !== null && timer <= at) fire(timer);
    waiting.push(i);
    const wait = pacer.changed(at);
    if (wait !== null) {
      assert.equal(timer, null, "one timer at a time");
      timer = at + wait;
    }
  }
  for (let n = 0; timer !== null; n++) {
    assert.ok(n < 10_000, "the timer stops");
    fire(timer);
  }
  return { frames, pacer, carried };
}

Deno.test("pacer: the first change goes at once, a burst goes in one frame at the interval", () => {
  const { frames, pacer } = run(OPTIONS, [1000, 1010, 1020, 1090]);
  assert.deepEqual(frames, [1000, 1100]);
  assert.equal(pacer.pending, false);
});

Deno.test("pacer: a 10 Hz spinner at 250 ms a frame: 4 frames a second, the last change sent", () => {
  const changes = Array.from({ length: 30 }, (_, i) => 10_000 + i * 107);
  const { frames } = run({ intervalMs: 250, maxDrainWaitMs: 1000 }, changes);
  assert.equal(frames[0], 10_000);
  for (let i = 1; i < frames.length; i++) assert.ok(frames[i]! - frames[i - 1]! >= 250);
  assert.ok(frames.length <= Math.ceil((29 * 107) / 250) + 1, `${frames.length} frames`);
  assert.ok(frames.at(-1)! >= changes.at(-1)!, "the last change has its frame");
});

Deno.test("pacer: a draining socket delays the frame, at most maxDrainWaitMs", () => {
  // Draining from 1050 to 1400: the frame due at 1100 waits for it to drain.
  assert.deepEqual(run(OPTIONS, [1000, 1050], (t) => t >= 1050 && t < 1400).frames, [1000, 1400]);
  // Never drains: the frame goes 1000 ms past its time anyway.
  assert.deepEqual(run(OPTIONS, [1000, 1050], (t) => t > 1000).frames, [1000, 2100]);
});

Deno.test("pacer: a whole screen sent restarts the interval", () => {
  const pacer = new FramePacer(OPTIONS);
  assert.equal(pacer.changed(0), 0);
  assert.equal(pacer.due(0, false), "send");
  assert.equal(pacer.changed(150), 0); // quiet for longer than the interval: at once
  pacer.reset(150); // ... but a whole screen went first
  assert.equal(pacer.due(150, false), null, "nothing left to send");
  assert.equal(pacer.changed(160), 90);
  assert.equal(pacer.due(250, false), "send");
  // A timer armed before a reset fires early: it waits out the interval of the reset.
  assert.equal(pacer.changed(400), 0);
  pacer.reset(400);
  pacer.changed(401);
  assert.deepEqual(pacer.due(400, false), { waitMs: 100 });
  assert.equal(pacer.due(500, false), "send");
});

Deno.test("pacer: any changes, any draining: frames spaced, every change carried, bounded delay", () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 200 }),
      fc.array(fc.tuple(fc.integer({ min: 0, max: 6000 }), fc.integer({ min: 1, max: 3000 })), {
        maxLength: 5,
      }),
      fc.integer({ min: 1, max: 400 }),
      fc.integer({ min: 0, max: 2000 }),
      (changes, drains, intervalMs, maxDrainWaitMs) => {
        const options = { intervalMs, maxDrainWaitMs };
        const draining = (t: number) => drains.some(([from, ms]) => t >= from && t < from + ms);
        const { frames, pacer, carried } = run(options, changes, draining);
        assert.equal(pacer.pending, false);
        // Spaced: never two frames within the interval (a timer may fire a little early).
        for (let i = 1; i < frames.length; i++) {
          assert.ok(frames[i]! - frames[i - 1]! >= intervalMs - TIMER_SLACK_MS, `frames ${frames}`);
        }
        // Coalesced: no more frames than changes.
        assert.ok(frames.length <= changes.length);
        // Every change is carried by a frame after it, within the bound.
        for (const [i, at] of [...changes].sort((a, b) => a - b).entries()) {
          const frame = carried.get(i);
          assert.ok(frame !== undefined, `change at ${at} never sent (${frames})`);
          assert.ok(frame - at <= intervalMs + maxDrainWaitMs, `change at ${at}: frame ${frame}`);
        }
      },
    ),
    { numRuns: 500 },
  );
});
