import assert from "node:assert/strict";
import { TurnTracker } from "./turns.ts";

Deno.test("a turn runs from working to the next other state", () => {
  const t = new TurnTracker();
  assert.deepEqual(t.get("s"), { turns: 0, turnStartedAt: null, lastTurnMs: null });
  t.update("s", "idle", 0);
  t.update("s", "working", 1000);
  t.update("s", "working", 1500); // a repeated claim does not restart the turn
  assert.deepEqual(t.get("s"), { turns: 0, turnStartedAt: 1000, lastTurnMs: null });
  t.update("s", "blocked", 4000);
  assert.deepEqual(t.get("s"), { turns: 1, turnStartedAt: null, lastTurnMs: 3000 });
  t.update("s", "working", 5000);
  t.update("s", "done", 5500);
  assert.deepEqual(t.get("s"), { turns: 2, turnStartedAt: null, lastTurnMs: 500 });
  t.remove("s");
  assert.equal(t.get("s").turns, 0);
});
