import assert from "node:assert/strict";
import { VirtualClock } from "./virtual_clock.ts";

Deno.test("timers run in time order, each followed by the work it deferred", () => {
  const clock = new VirtualClock(1000);
  const log: string[] = [];
  clock.setTimeout(() => {
    log.push(`b@${clock.now()}`);
    clock.queueMicrotask(() => log.push("b's microtask"));
  }, 20);
  clock.setTimeout(() => log.push(`a@${clock.now()}`), 10);
  clock.setTimeout(() => log.push(`c@${clock.now()}`), 20);
  clock.advance(15);
  assert.deepEqual(log, ["a@1010"]);
  assert.equal(clock.now(), 1015);
  clock.advance(5);
  assert.deepEqual(log, ["a@1010", "b@1020", "b's microtask", "c@1020"]);
  assert.equal(clock.pending, 0);
});

Deno.test("enter() stops short of the timers due at that moment; intervals repeat until cleared", () => {
  const clock = new VirtualClock();
  let ticks = 0;
  const id = clock.setInterval(() => ticks++, 50);
  clock.enter(100);
  assert.equal(ticks, 1, "the one at 100 waits");
  clock.advanceTo(100);
  assert.equal(ticks, 2);
  clock.clearInterval(id);
  clock.advance(1000);
  assert.equal(ticks, 2);
  assert.equal(clock.next, null);
});

Deno.test("a ticker on the virtual clock keeps the grid and settles a point before the next", () => {
  const clock = new VirtualClock(1003);
  const ticker = clock.ticker(50);
  const log: string[] = [];
  ticker.after(30, () => {
    log.push(`settle@${clock.now()}`);
    ticker.whenSettled(() => log.push(`settled@${clock.now()}`));
    ticker.defer(() => log.push("deferred"));
  });
  clock.advance(46);
  assert.deepEqual(log, [], "30 ms after 1003 is the grid point at 1050");
  clock.advance(1);
  assert.deepEqual(log, ["settle@1050", "deferred", "settled@1050"]);
  assert.equal(clock.pending, 0, "an idle ticker arms nothing");
});
