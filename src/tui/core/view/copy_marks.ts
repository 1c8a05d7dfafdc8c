/**
 * Copy mode drawn over a session's screen: the selected lines, the cursor
 * line, every match of the search that is on screen and, brighter, the
 * current one. Matches are found again in the cells shown (the same smart
 * case as the session's search, src/model/search.ts), so whatever scrolls
 * into view is marked without asking the session.
 */

import type { CopyState } from "../../../model/tui.ts";
import { matchSpans, searchPattern } from "../../../model/search.ts";
import type { Cells } from "../../../model/cells.ts";
import type { Frame, Style } from "../frame.ts";
import type { Rect } from "../layout.ts";
import { theme } from "./theme.ts";
import type { PaneWindow } from "./pane_window.ts";

/**
 * Marks rows of `screen` drawn at `r` (the screen shows lines `offset`.. up
 * from the last row), through the window `w` of it the pane shows.
 */
export function drawCopyMarks(
  frame: Frame,
  r: Rect,
  copy: CopyState,
  screen: Cells,
  offset: number,
  w: Pick<PaneWindow, "top" | "left" | "rows" | "cols"> = {
    top: 0,
    left: 0,
    rows: Math.min(r.height, screen.rows),
    cols: Math.min(r.width, screen.cols),
  },
): void {
  const rows = Math.min(r.height, w.rows);
  const width = Math.min(r.width, w.cols);
  const lineOf = (y: number) => offset + screen.rows - 1 - (w.top + y);
  const anchor = copy.anchor;
  const pattern = copy.search ? searchPattern(copy.search.query) : null;
  const hit = copy.search?.hit ?? null;
  for (let y = 0; y < rows; y++) {
    const line = lineOf(y);
    const selected = anchor !== null &&
      line <= Math.max(anchor, copy.cursor) && line >= Math.min(anchor, copy.cursor);
    if (selected) paint(frame, r.x, r.y + y, width, theme.copySelection);
    if (line === copy.cursor) {
      paint(frame, r.x, r.y + y, width, selected ? theme.searchMatch : theme.copyCursor);
    }
    if (pattern) {
      const { text, cols } = rowText(screen, w.top + y);
      for (const [from, to] of matchSpans(pattern, text)) {
        const x0 = cols[from];
        const x1 = cols[to - 1];
        if (x0 === undefined || x1 === undefined) continue;
        const end = x1 + Math.max(1, screen.widths[(w.top + y) * screen.cols + x1]!);
        const a = Math.max(0, x0 - w.left);
        const b = Math.min(width, end - w.left);
        if (b > a) paint(frame, r.x + a, r.y + y, b - a, theme.searchMatch);
      }
    }
    const col = hit ? hit.col - w.left : -1;
    if (hit && hit.line === line && col + hit.cells > 0 && col < width) {
      const a = Math.max(0, col);
      paint(frame, r.x + a, r.y + y, Math.min(col + hit.cells, width) - a, theme.searchCurrent);
    }
  }
}

/** Row y of the grid as text, with the cell of each UTF-16 unit. */
function rowText(screen: Cells, y: number): { text: string; cols: number[] } {
  let text = "";
  const cols: number[] = [];
  for (let x = 0; x < screen.cols; x++) {
    const i = y * screen.cols + x;
    if (screen.widths[i] === 0) continue;
    const ch = screen.chars[i] || " ";
    text += ch;
    for (let k = 0; k < ch.length; k++) cols.push(x);
  }
  return { text, cols };
}

/** Sets the colours (and attributes, when the style has some) of `width` cells from (x, y). */
function paint(frame: Frame, x: number, y: number, width: number, style: Style): void {
  for (let i = 0; i < width; i++) {
    if (!frame.inside(x + i, y)) return;
    const j = frame.index(x + i, y);
    if (style.bg !== undefined) frame.bg[j] = style.bg;
    if (style.fg !== undefined) frame.fg[j] = style.fg;
    if (style.attrs !== undefined) frame.attrs[j] = style.attrs;
  }
}
