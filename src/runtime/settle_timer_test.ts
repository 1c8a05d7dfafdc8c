/**
 * The settle timer on a virtual clock (a 10 ms grid): classified after the quiet time, at the
 * latest the maximum wait after the first output, later while a frame is half drawn or output
 * waits unread; one timer for a quiet period; a look again shares its slot.
 */

import assert from "node:assert/strict";
import { VirtualClock } from "../util/virtual_clock.ts";
import { type SettleSession, SettleTimer } from "./settle_timer.ts";

function setup() {
  const clock = new VirtualClock(0);
  const scheduler = clock.ticker(10);
  const session: { -readonly [K in keyof SettleSession]: SettleSession[K] } = {
    id: "session-1",
    outputBehind: false,
    midUpdate: false,
  };
  const settledAt: number[] = [];
  const timer = new SettleTimer(
    session,
    { now: clock.now, scheduler, settleMs: 30, maxWaitMs: 100, midUpdateMaxMs: 1000 },
    { name: "test" },
    () => {
      settledAt.push(clock.now());
      timer.reset();
    },
  );
  return { clock, session, settledAt, timer };
}

Deno.test("settled after the quiet time; under steady output at the maximum wait", () => {
  const { clock, settledAt, timer } = setup();
  timer.output();
  assert.equal(timer.armed, true);
  clock.advanceTo(29);
  assert.deepEqual(settledAt, []);
  clock.advanceTo(30);
  assert.deepEqual(settledAt, [30]);
  assert.equal(timer.armed, false);
  // Output every 20 ms never leaves 30 ms of quiet: the maximum wait (100 ms) ends it.
  for (let t = 40; t <= 200; t += 20) {
    clock.advanceTo(t);
    timer.output();
  }
  assert.deepEqual(settledAt, [30, 140]);
});

Deno.test("a half-drawn frame is held back, at most the hold's maximum", () => {
  const { clock, session, settledAt, timer } = setup();
  session.midUpdate = true;
  timer.output();
  clock.advanceTo(500);
  assert.deepEqual(settledAt, []);
  session.midUpdate = false;
  clock.advanceTo(600);
  assert.deepEqual(settledAt, [510], "the first check after the update ended");
  session.midUpdate = true;
  timer.output();
  clock.advanceTo(3000);
  // The hold begins at the first check (630); checks every 30 ms: 1620 is 990 ms in, 1650 past 1 s.
  assert.deepEqual(settledAt, [510, 1650]);
});

Deno.test("output waiting unread holds the check until the maximum wait", () => {
  const { clock, session, settledAt, timer } = setup();
  session.outputBehind = true;
  timer.output();
  clock.advanceTo(99);
  assert.deepEqual(settledAt, []);
  clock.advanceTo(100);
  assert.deepEqual(settledAt, [100]);
});

Deno.test("a look again waits for nothing armed, and a reset or cancel disarms it", () => {
  const { clock, settledAt, timer } = setup();
  const looks: number[] = [];
  timer.output();
  timer.retry(5, () => looks.push(clock.now()));
  clock.advanceTo(30);
  assert.deepEqual([settledAt, looks], [[30], []], "the armed check stood");
  timer.retry(50, () => looks.push(clock.now()));
  clock.advanceTo(80);
  assert.deepEqual(looks, [80]);
  timer.retry(50, () => looks.push(clock.now()));
  timer.cancel();
  timer.output();
  timer.reset();
  clock.advanceTo(500);
  assert.deepEqual([settledAt, looks], [[30], [80]]);
});
