import assert from "node:assert/strict";
import { LIMIT_RESET_SECONDS, LimitWindows } from "./failures.ts";

Deno.test("LimitWindows: a turn is limited until its first request's reset, then lifts", () => {
  const windows = new LimitWindows();
  const t0 = 1_796_229_694_500;
  const reset = Math.floor(t0 / 1000) + LIMIT_RESET_SECONDS;
  assert.equal(windows.resetOf("LAB-FAIL-LIMIT: a", t0), reset);
  // Retries and side requests before the reset: the same reset, not a new one.
  assert.equal(windows.resetOf("LAB-FAIL-LIMIT: a", t0 + 30_000), reset);
  assert.equal(windows.resetOf("LAB-FAIL-LIMIT: a", reset * 1000 - 1), reset);
  // The turn sent again from the reset on (Claude continuing by itself) answers.
  assert.equal(windows.resetOf("LAB-FAIL-LIMIT: a", reset * 1000), null);
  assert.equal(windows.resetOf("LAB-FAIL-LIMIT: a", reset * 1000 + 60_000), null);
  // The turn sent again with more text around its line is the same turn.
  assert.equal(windows.resetOf("<reminder>\nLAB-FAIL-LIMIT: a\nContinue.", t0 + 1000), reset);
  // Another turn has its own window.
  assert.equal(windows.resetOf("LAB-FAIL-LIMIT: b", t0 + 30_000), reset + 30);
});
