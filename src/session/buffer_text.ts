/**
 * Reads a session's whole buffer, scrollback and screen, as text: the
 * search of `/` and the lines copy mode puts on the clipboard. Lines are
 * counted up from the buffer's last row (src/model/search.ts). Rows are
 * read through the session's history (history.ts): the compact store's,
 * then the emulator's, as if xterm kept every row (Session.search,
 * Session.copyText).
 *
 * Soft-wrapped rows are one line: a match may run across the wrap, and a
 * copied line comes out whole.
 */

import {
  matchSpans,
  MAX_MATCHES,
  type SearchDirection,
  type SearchFrom,
  type SearchHit,
  searchPattern,
} from "../model/search.ts";
import type { HistoryRows } from "./history.ts";
import type { HeadlessTerminal } from "./terminal.ts";

/** Rows in the active buffer: the screen plus the scrollback above it. */
export function bufferRows(terminal: HeadlessTerminal): number {
  return terminal.history.activeRows().length;
}

interface Position {
  /** Absolute row, 0 the oldest. */
  readonly row: number;
  readonly col: number;
  readonly cells: number;
}

/**
 * The match of `query` next to `from` in `direction` (from null: the
 * newest match), with its rank among all of them; null when there is none.
 */
export function searchBuffer(
  terminal: HeadlessTerminal,
  query: string,
  from: SearchFrom | null,
  direction: SearchDirection,
): SearchHit | null {
  const pattern = searchPattern(query);
  if (!pattern) return null;
  const b = terminal.history.activeRows();
  const last = b.length - 1;
  const all = allMatches(b, terminal.cols, pattern);
  if (all.length === 0) return null;
  const at = from === null
    ? { row: last + 1, col: 0 }
    : { row: last - from.line, col: from.col < 0 ? Infinity : from.col };
  const before = (p: Position) => p.row < at.row || (p.row === at.row && p.col < at.col);
  const after = (p: Position) => p.row > at.row || (p.row === at.row && p.col > at.col);
  let i = -1;
  if (direction === "older") {
    for (let k = all.length - 1; k >= 0; k--) {
      if (before(all[k]!)) {
        i = k;
        break;
      }
    }
  } else {
    i = all.findIndex(after);
  }
  if (i < 0) return null;
  const hit = all[i]!;
  return {
    line: last - hit.row,
    col: hit.col,
    cells: hit.cells,
    index: all.length - i,
    total: all.length,
  };
}

/** Every match in buffer order, oldest first (at most MAX_MATCHES). */
function allMatches(b: HistoryRows, cols: number, pattern: RegExp): Position[] {
  const out: Position[] = [];
  let start = 0;
  while (start < b.length && out.length < MAX_MATCHES) {
    // One logical line: a row and the soft-wrapped rows that continue it.
    let end = start + 1;
    while (end < b.length && b.getLine(end)?.isWrapped) end++;
    const texts: string[] = [];
    for (let r = start; r < end; r++) {
      texts.push(b.getLine(r)?.translateToString(r === end - 1) ?? "");
    }
    const spans = matchSpans(pattern, texts.join(""));
    if (spans.length > 0) {
      const map = cellMap(b, start, end);
      for (const [from, to] of spans) {
        const first = map[from];
        const lastCell = map[Math.max(from, to - 1)];
        if (!first || !lastCell) continue;
        const cells = lastCell.row === first.row
          ? lastCell.col + lastCell.width - first.col
          : cols -
            first.col;
        out.push({ row: first.row, col: first.col, cells: Math.max(1, cells) });
        if (out.length >= MAX_MATCHES) break;
      }
    }
    start = end;
  }
  return out;
}

interface CellAt {
  readonly row: number;
  readonly col: number;
  readonly width: number;
}

/** For each UTF-16 unit of the rows' text (as translateToString writes it), its cell. */
function cellMap(b: HistoryRows, start: number, end: number): CellAt[] {
  const map: CellAt[] = [];
  for (let row = start; row < end; row++) {
    b.getLine(row)?.cells((col, width, chars) => {
      if (width === 0) return; // the second half of a wide character
      const n = chars.length || 1; // an empty cell is one space
      for (let k = 0; k < n; k++) map.push({ row, col, width });
    });
  }
  return map;
}

/**
 * Lines `top`..`bottom` (counted up from the last row, top ≥ bottom) as
 * text: soft-wrapped rows joined, trailing blanks trimmed, one `\n`
 * between lines. A selection starting inside a wrapped line starts at the
 * selected row.
 */
export function bufferText(terminal: HeadlessTerminal, top: number, bottom: number): string {
  const b = terminal.history.activeRows();
  const last = b.length - 1;
  const from = Math.max(0, last - Math.max(top, bottom));
  const to = Math.min(last, last - Math.min(top, bottom));
  // Each line as its rows: full width while the next row continues it.
  const lines: string[][] = [];
  for (let row = from; row <= to; row++) {
    const line = b.getLine(row);
    if (!line) continue;
    const current = lines.at(-1);
    if (line.isWrapped && row > from && current) {
      current[current.length - 1] = b.getLine(row - 1)?.translateToString(false) ?? "";
      current.push(line.translateToString(true));
    } else {
      lines.push([line.translateToString(true)]);
    }
  }
  return lines.map((l) => l.join("").trimEnd()).join("\n");
}
