import assert from "node:assert/strict";
import { Ticker } from "./ticker.ts";

function fired(ticker: Ticker, ms: number, log: string[], name: string): Promise<number> {
  return new Promise((resolve) =>
    ticker.after(ms, () => {
      log.push(name);
      resolve(performance.now());
    })
  );
}

Deno.test("callbacks due in the same grid period share one wake-up, in scheduling order", async () => {
  const ticker = new Ticker(50);
  const log: string[] = [];
  await fired(ticker, 0, log, "align"); // now just after a grid point
  const t0 = performance.now();
  const [a] = await Promise.all([fired(ticker, 20, log, "first"), fired(ticker, 1, log, "second")]);
  assert.equal(ticker.wakeups, 2);
  assert.deepEqual(log, ["align", "first", "second"]);
  assert.ok(a >= t0 + 20, "not before the later one was due");
});

Deno.test("a later callback waits for its own grid point", async () => {
  const ticker = new Ticker(20);
  const log: string[] = [];
  const t0 = performance.now();
  const late = await Promise.all([fired(ticker, 1, log, "a"), fired(ticker, 45, log, "b")]);
  assert.deepEqual(log, ["a", "b"]);
  assert.equal(ticker.wakeups, 2);
  assert.ok(late[1]! - t0 >= 45);
});

Deno.test("cancelled callbacks never run and leave no timer behind", async () => {
  const ticker = new Ticker(10);
  let ran = false;
  const sub = ticker.after(5, () => ran = true);
  sub[Symbol.dispose]();
  assert.equal(ticker.pending, 0);
  // The test sanitizer fails if a timer were still armed; wait past the grid point anyway.
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(ran, false);
});

Deno.test("every() repeats on the grid until disposed", async () => {
  const ticker = new Ticker(10);
  let n = 0;
  const done = Promise.withResolvers<void>();
  const sub = ticker.every(10, () => {
    if (++n === 3) done.resolve();
  });
  await done.promise;
  sub[Symbol.dispose]();
  assert.equal(n, 3);
  assert.equal(ticker.pending, 0);
});
