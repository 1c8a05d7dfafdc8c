import assert from "node:assert/strict";
import {
  ATTACH_LIMITS,
  attachRefusal,
  connectionRefusal,
  mib,
  overflow,
  overflowMessage,
} from "./attach_limits.ts";

Deno.test("overflow drops the clients holding the most, largest first, until the rest fit", () => {
  const q = (id: string, bytes: number) => ({ id, bytes });
  assert.deepEqual(overflow([q("a", 30), q("b", 30)], 60), []);
  assert.deepEqual(overflow([q("a", 10), q("b", 50), q("c", 20)], 60).map((x) => x.id), ["b"]);
  assert.deepEqual(
    overflow([q("a", 25), q("b", 30), q("c", 28), q("d", 1)], 30).map((x) => x.id),
    ["b", "c"],
  );
  // One client past the bound alone goes, and only it.
  assert.deepEqual(overflow([q("a", 100), q("b", 1)], 60).map((x) => x.id), ["a"]);
  assert.deepEqual(overflow([], 0), []);
});

Deno.test("a newcomer past a cap is refused in one line naming the cap", () => {
  const limits = { ...ATTACH_LIMITS, maxConnections: 4, maxPending: 2, maxClients: 3 };
  assert.equal(connectionRefusal({ connections: 3, pending: 1 }, limits), null);
  assert.match(connectionRefusal({ connections: 3, pending: 2 }, limits)!, /2 connections waiting/);
  assert.match(connectionRefusal({ connections: 4, pending: 0 }, limits)!, /4 connections open/);
  assert.equal(attachRefusal(2, limits), null);
  assert.match(attachRefusal(3, limits)!, /3 clients attached, the most it takes/);
  for (const line of [connectionRefusal({ connections: 9, pending: 0 }, limits)!]) {
    assert.ok(!line.includes("\n"));
  }
});

Deno.test("the line a dropped client prints says how much it did not read and the bound", () => {
  assert.equal(mib(16 * 1024 * 1024), "16 MiB");
  assert.equal(mib(4.3 * 1024 * 1024), "4.3 MiB");
  assert.match(overflowMessage(3 * 1024 * 1024, ATTACH_LIMITS), /did not read 3 MiB .* 64 MiB/);
});
