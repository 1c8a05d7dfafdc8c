import assert from "node:assert/strict";
import { HOST_BACKOFF, retryDelay } from "./backoff.ts";

Deno.test("retryDelay: doubles from 500 ms to at most 30 s, up to a quarter less at random", () => {
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6, 7, 8, 20].map((n) => retryDelay(n, HOST_BACKOFF, 0)),
    [500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000],
  );
  assert.equal(retryDelay(1, HOST_BACKOFF, 1), 375);
  assert.equal(retryDelay(3, HOST_BACKOFF, 0.5), 1750);
  assert.equal(retryDelay(0, HOST_BACKOFF, 2), 375); // clamped
});
