import assert from "node:assert/strict";
import { qrMatrix, qrText } from "./qr.ts";

Deno.test("the URL's QR code: finder patterns in three corners, two rows a line", () => {
  const url = "http://127.0.0.1:7690/?token=" + "A".repeat(43);
  const m = qrMatrix(url);
  const n = m.length;
  assert.ok(n >= 21 && (n - 17) % 4 === 0, `size ${n}`);
  // A finder: a dark 7×7 ring around a light ring around a dark 3×3.
  const finder = (r: number, c: number) =>
    [0, 6].every((i) => [0, 1, 2, 3, 4, 5, 6].every((j) => m[r + i]![c + j] && m[r + j]![c + i])) &&
    !m[r + 1]![c + 1] && m[r + 3]![c + 3];
  assert.ok(finder(0, 0) && finder(0, n - 7) && finder(n - 7, 0));
  const lines = qrText(url);
  assert.equal(lines.length, Math.ceil((n + 4) / 2));
});
