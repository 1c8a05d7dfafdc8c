import assert from "node:assert/strict";
import { layout, sessionSize } from "./layout.ts";

Deno.test("layout() at 120x32: tab bar, 30-column list, separator, pane, hint bar", () => {
  const l = layout(120, 32);
  assert.deepEqual(l.tabBar, { x: 0, y: 0, width: 120, height: 1 });
  assert.deepEqual(l.sidebar, { x: 0, y: 1, width: 30, height: 30 });
  assert.deepEqual(l.separator, { x: 30, y: 1, width: 1, height: 30 });
  assert.deepEqual(l.pane, { x: 31, y: 1, width: 89, height: 30 });
  assert.deepEqual(l.hintBar, { x: 0, y: 31, width: 120, height: 1 });
  assert.deepEqual(sessionSize(120, 32), { cols: 89, rows: 30 });
});

Deno.test("layout() never yields negative or overflowing parts, down to 0x0", () => {
  for (let cols = 0; cols <= 130; cols += 1) {
    for (const rows of [0, 1, 2, 3, 5, 9, 10, 24, 60]) {
      const l = layout(cols, rows);
      for (const r of Object.values(l)) {
        assert.ok(r.width >= 0 && r.height >= 0, `${cols}x${rows}`);
        assert.ok(r.x + r.width <= Math.max(cols, 0) && r.y + r.height <= Math.max(rows, 0));
      }
      assert.equal(l.sidebar.width + l.separator.width + l.pane.width, cols);
    }
  }
});

Deno.test("sessionSize() is at least 2x2 so a PTY is always valid", () => {
  assert.deepEqual(sessionSize(1, 1), { cols: 2, rows: 2 });
  assert.deepEqual(sessionSize(30, 5), { cols: 19, rows: 3 });
});
