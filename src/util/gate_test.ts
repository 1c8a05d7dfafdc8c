import assert from "node:assert/strict";
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
  await gate.enter(); // never released by hand
  const release = await gate.enter();
  release();
});
