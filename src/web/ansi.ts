/**
 * A screen read as cells (src/model/cells.ts) back into the escape
 * sequences that draw it, row by row, for the page's terminal (xterm.js):
 * each row positions the cursor, draws its cells with their colours and
 * attributes and clears to its end. Pure.
 */

import { type Cells, DEFAULT_COLOR, INVERSE } from "../model/cells.ts";
import { sgr } from "../tui/core/diff.ts";

/** Row `y` of `grid`, drawn at row `y` (1-based on the wire), cleared to its end. */
export function ansiRow(grid: Cells, y: number): string {
  let out = `\x1b[${y + 1};1H\x1b[0m`;
  let style = "\x1b[0m";
  let last = grid.cols;
  // Trailing blanks in the default style are left to the clear.
  while (last > 0) {
    const i = grid.index(last - 1, y);
    const ch = grid.chars[i]!;
    if ((ch !== " " && ch !== "") || grid.bg[i] !== DEFAULT_COLOR || grid.attrs[i]! & INVERSE) {
      break;
    }
    last--;
  }
  for (let x = 0; x < last; x++) {
    const i = grid.index(x, y);
    if (grid.widths[i] === 0) continue; // the second half of a wide character
    const s = sgr(grid.fg[i]!, grid.bg[i]!, grid.attrs[i]!);
    if (s !== style) {
      out += s;
      style = s;
    }
    out += grid.chars[i] || " ";
  }
  return `${out}\x1b[0m\x1b[K`;
}

/** Every row of the grid (one string each), to compare with what a page was last sent. */
export function ansiRows(grid: Cells): string[] {
  const out: string[] = [];
  for (let y = 0; y < grid.rows; y++) out.push(ansiRow(grid, y));
  return out;
}

/** Where the cursor goes after the rows, shown or hidden. */
export function ansiCursor(grid: Cells): string {
  return grid.cursor === null
    ? "\x1b[?25l"
    : `\x1b[${grid.cursor.y + 1};${grid.cursor.x + 1}H\x1b[?25h`;
}
