import assert from "node:assert/strict";
import { ATTACH_LIMITS, attachRefusal, connectionRefusal } from "./attach_limits.ts";

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
