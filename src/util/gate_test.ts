import assert from "node:assert/strict";
import { within } from "./async.ts";
import { Gate } from "./gate.ts";

Deno.test("Gate lets `size` holders in at once, the next in order as each releases", async () => {
  const gate = new Gate(2, 60_000);
  const order: string[] = [];
  const a = await gate.enter();
  const b = await gate.enter();
  const c = gate.enter().then((release) => (order.push("c"), release));
  const d = gate.enter().then((release) => (order.push("d"), release));
  await Promise.resolve();
  assert.deepEqual(order, []);
  a();
  a(); // twice is harmless: it frees one place, not two
  (await c)();
  assert.deepEqual(order, ["c"]);
  b();
  (await d)();
  assert.deepEqual(order, ["c", "d"]);
});

Deno.test("Gate takes a place back from a holder that never releases, after holdMs", async () => {
  const gate = new Gate(1, 20);
  const stale = await gate.enter(); // never released by hand (until too late)
  let second = false;
  const entered = gate.enter().then((release) => ((second = true), release));
  await Promise.resolve();
  assert.equal(second, false, "the one place is held");
  // holdMs is 20: 10 s bounds a gate that never gives the place back (a failure, not a timing).
  assert.ok(await within(entered, 10_000), "the place came back from the stale holder");
  const release = await entered;
  assert.equal(second, true);
  // The timed-out holder's late release gives no second place: the next one still waits.
  stale();
  let third = false;
  const next = gate.enter().then((r) => ((third = true), r));
  await Promise.resolve();
  assert.equal(third, false, "a late release frees nothing");
  release();
  (await next)();
  assert.equal(third, true);
});
