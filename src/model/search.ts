/**
 * Scrollback search and copy-mode coordinates, shared by the session layer
 * (which searches an emulator's buffer) and the TUI (which highlights the
 * matches it draws). Pure.
 *
 * Lines are counted up from the last row of a session's buffer: 0 is the
 * bottom row of the screen, 1 the row above it, and so on into the
 * scrollback, the unit of the TUI's scroll offset. New output moves the
 * content, the coordinates and the view together, so a match stays under
 * the highlight of the view that shows it.
 */

/** One occurrence of the search text. */
export interface SearchHit {
  /** Lines up from the buffer's last row. */
  readonly line: number;
  /** First cell of the match in that row. */
  readonly col: number;
  /** Cells the match covers (clipped to its row when drawn). */
  readonly cells: number;
  /** 1 for the newest (lowest) match, `total` for the oldest. */
  readonly index: number;
  readonly total: number;
}

/** Older: up, towards the start of the scrollback. */
export type SearchDirection = "older" | "newer";

/** Where a search continues from: a match, or a whole row (`col` -1 means "the end of it"). */
export interface SearchFrom {
  readonly line: number;
  readonly col: number;
}

/** The most matches one search counts (n/N still move past them one at a time). */
export const MAX_MATCHES = 100_000;

/**
 * The search text as a literal pattern, smart case as in less and vim: a
 * query with no capital letter ignores case.
 */
export function searchPattern(query: string): RegExp | null {
  if (query === "") return null;
  const literal = query.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(literal, query === query.toLowerCase() ? "giu" : "gu");
}

/** Text spans [start, end) (string indices) of every match of `pattern` in `text`. */
export function matchSpans(pattern: RegExp, text: string): [number, number][] {
  const out: [number, number][] = [];
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    out.push([m.index, m.index + m[0].length]);
    if (m[0].length === 0) pattern.lastIndex++;
  }
  return out;
}
