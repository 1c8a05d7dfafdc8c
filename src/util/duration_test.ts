import assert from "node:assert/strict";
import { formatDuration } from "./duration.ts";

Deno.test("formatDuration() as in the session list", () => {
  assert.equal(formatDuration(0), "0s");
  assert.equal(formatDuration(45_900), "45s");
  assert.equal(formatDuration(92_000), "1m32s");
  assert.equal(formatDuration(65_000), "1m05s");
  assert.equal(formatDuration(2 * 3600_000 + 5 * 60_000), "2h05m");
});
