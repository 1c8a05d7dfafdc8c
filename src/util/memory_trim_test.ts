import assert from "node:assert/strict";
import { delay } from "./async.ts";
import { Trimmer } from "./memory_trim.ts";
import { Ticker } from "./ticker.ts";

Deno.test("the trimmer trims after start-up, then only after activity, never while idle", async () => {
  let trims = 0;
  using trimmer = new Trimmer({ firstMs: 5, everyMs: 30, trim: () => (trims++, true) });
  await delay(80);
  assert.equal(trims, 1, "once after start-up, no timer while nothing happens");
  trimmer.poke();
  trimmer.poke(); // a trim is due already: no second one
  await delay(80);
  assert.equal(trims, 2, "once after the activity");
  await delay(80);
  assert.equal(trims, 2, "idle again: nothing");
});

Deno.test("a ticker tells of each grid point that fires, and nothing while idle", async () => {
  const ticker = new Ticker(10);
  let woken = 0;
  using _woken = ticker.onWake(() => woken++);
  await delay(40);
  assert.equal(woken, 0);
  ticker.after(0, () => {});
  await delay(40);
  assert.equal(woken, 1);
});
