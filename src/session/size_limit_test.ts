import assert from "node:assert/strict";
import { clampSize, MAX_COLS, MAX_ROWS, oversizeNotice } from "./size_limit.ts";

Deno.test("sizes past MAX_COLS×MAX_ROWS are clamped, each side on its own, and said so", () => {
  assert.deepEqual(clampSize(80, 24), { cols: 80, rows: 24 });
  assert.deepEqual(clampSize(10_000, 10_000), { cols: MAX_COLS, rows: MAX_ROWS });
  assert.deepEqual(clampSize(2000, 40), { cols: MAX_COLS, rows: 40 });
  assert.equal(oversizeNotice(MAX_COLS, MAX_ROWS), null);
  assert.equal(
    oversizeNotice(2000, 40),
    `This terminal is 2000×40: lazyshell draws at most ${MAX_COLS}×${MAX_ROWS}`,
  );
});
