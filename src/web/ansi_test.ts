import assert from "node:assert/strict";
import { BOLD, Cells, INVERSE, rgb } from "../model/cells.ts";
import { ansiCursor, ansiRow, ansiRows } from "./ansi.ts";

function grid(rows: string[], cols = 6): Cells {
  const g = new Cells(cols, rows.length);
  rows.forEach((r, y) => [...r].forEach((ch, x) => (g.chars[g.index(x, y)] = ch)));
  return g;
}

Deno.test("a row: positioned, its styles as SGR, trailing blanks left to the clear", () => {
  const g = grid(["ab    ", "      "]);
  g.fg[g.index(1, 0)] = 1;
  g.attrs[g.index(1, 0)] = BOLD;
  assert.equal(ansiRow(g, 0), "\x1b[1;1H\x1b[0ma\x1b[0;1;31mb\x1b[0m\x1b[K");
  assert.equal(ansiRow(g, 1), "\x1b[2;1H\x1b[0m\x1b[0m\x1b[K");
  g.bg[g.index(5, 1)] = rgb(0x102030);
  assert.equal(ansiRow(g, 1), "\x1b[2;1H\x1b[0m     \x1b[0;48;2;16;32;48m \x1b[0m\x1b[K");
  g.fg[g.index(0, 1)] = 200;
  g.attrs[g.index(0, 1)] = INVERSE;
  assert.ok(ansiRow(g, 1).startsWith("\x1b[2;1H\x1b[0m\x1b[0;7;38;5;200m "));
  assert.equal(ansiRows(g).length, 2);
});

Deno.test("a wide character is drawn once; the cursor placed or hidden", () => {
  const g = grid(["漢 x   "]);
  g.widths[g.index(0, 0)] = 2;
  g.chars[g.index(1, 0)] = "";
  g.widths[g.index(1, 0)] = 0;
  assert.equal(ansiRow(g, 0), "\x1b[1;1H\x1b[0m漢x\x1b[0m\x1b[K");
  assert.equal(ansiCursor(g), "\x1b[?25l");
  g.cursor = { x: 2, y: 0 };
  assert.equal(ansiCursor(g), "\x1b[1;3H\x1b[?25h");
});
