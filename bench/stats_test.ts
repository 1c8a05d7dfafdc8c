import assert from "node:assert/strict";
import { median, percentile } from "./stats.ts";

Deno.test("median of odd and even counts; percentile picks a sample", () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([2.2, 1.8]), 2);
  assert.equal(percentile([5, 1, 3, 2, 4], 50), 3);
});
