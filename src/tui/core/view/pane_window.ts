/**
 * The part of a session's screen a pane shows when the screen is bigger
 * than the pane (docs/tui.md, "Clients of different sizes"): another
 * client of a bigger terminal sized the session, or the `window_size`
 * policy made it so. The window keeps the cursor and the newest output in
 * view: its bottom is the lowest of the cursor's row and the last row with
 * something on it, and it moves right only as far as the cursor needs.
 * While the scrollback or copy mode is shown, the window is the screen's
 * last rows. Pure: a function of the screen's cells and the pane's size.
 */

import type { Cells } from "../../../model/cells.ts";
import { DEFAULT_COLOR } from "../../../model/cells.ts";
import type { TuiState } from "../../../model/tui.ts";

export interface PaneWindow {
  /** The screen row and column drawn at the pane's origin. */
  readonly top: number;
  readonly left: number;
  /** How many rows and columns of the screen are drawn (at most the pane's). */
  readonly rows: number;
  readonly cols: number;
  /** Rows of the screen above and below the window, columns left and right of it. */
  readonly above: number;
  readonly below: number;
  readonly before: number;
  readonly after: number;
}

/** The whole screen fits: the window is the screen, clipped to the pane. */
function clipped(screen: Cells, width: number, height: number): PaneWindow {
  const rows = Math.max(0, Math.min(height, screen.rows));
  const cols = Math.max(0, Math.min(width, screen.cols));
  return { top: 0, left: 0, rows, cols, above: 0, below: 0, before: 0, after: 0 };
}

/**
 * The lowest row below `above` with a character or a colour on it, or
 * `above` when there is none (-1: the screen is blank). Rows are read from
 * the bottom up to the first used one.
 */
export function lastUsedRow(screen: Cells, above = -1): number {
  const cols = screen.cols;
  for (let y = screen.rows - 1; y > above; y--) {
    const from = y * cols;
    for (let i = from; i < from + cols; i++) {
      const ch = screen.chars[i];
      if ((ch !== " " && ch !== "") || screen.bg[i] !== DEFAULT_COLOR || screen.attrs[i] !== 0) {
        return y;
      }
    }
  }
  return above;
}

/**
 * Whether session `id`'s pane shows the bottom of the screen read (the
 * scrollback is shown, or copy mode moves over it): its lines then count
 * up from the pane's last row, as the scroll offset does.
 */
export function windowAtBottom(state: Pick<TuiState, "scroll" | "copy">, id: string): boolean {
  return (state.scroll[id] ?? 0) > 0 || state.copy?.id === id;
}

/**
 * The window of `screen` a pane of `width`×`height` shows; `bottom`: its
 * last rows (windowAtBottom()).
 */
export function paneWindow(
  screen: Cells,
  width: number,
  height: number,
  bottom = false,
): PaneWindow {
  width = Math.max(0, Math.floor(width));
  height = Math.max(0, Math.floor(height));
  const base = clipped(screen, width, height);
  if (screen.rows <= height && screen.cols <= width) return base;
  const c = screen.cursor;
  let top = 0;
  if (screen.rows > height && height > 0 && bottom) top = screen.rows - height;
  else if (screen.rows > height && height > 0) {
    // Only the rows below the cursor are read: the cursor's row is in view anyway.
    const bottom = lastUsedRow(screen, c ? Math.min(c.y, screen.rows - 1) : -1);
    top = Math.max(0, Math.min(screen.rows - height, bottom - height + 1));
    if (c && c.y < top) top = Math.max(0, c.y);
  }
  let left = 0;
  if (screen.cols > width && width > 0 && c && c.x >= width) {
    left = Math.max(0, Math.min(screen.cols - width, c.x - width + 1));
  }
  return {
    ...base,
    top,
    left,
    above: top,
    below: Math.max(0, screen.rows - top - base.rows),
    before: left,
    after: Math.max(0, screen.cols - left - base.cols),
  };
}

export function sameWindow(a: PaneWindow | null, b: PaneWindow | null): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return a.top === b.top && a.left === b.left && a.rows === b.rows && a.cols === b.cols &&
    a.below === b.below && a.after === b.after;
}

/** True when the window leaves part of the screen out. */
export function hidesSomething(w: PaneWindow): boolean {
  return w.above + w.below + w.before + w.after > 0;
}

/**
 * What the pane says of what it cannot show: `160×45 · 16 rows above · 60
 * cols right hidden`, shortest form first to fit; "" when nothing is hidden.
 */
export function windowLabel(w: PaneWindow, screen: Cells, room: number): string {
  if (!hidesSomething(w)) return "";
  const parts: string[] = [];
  if (w.above) parts.push(`↑${w.above}`);
  if (w.below) parts.push(`↓${w.below}`);
  if (w.before) parts.push(`←${w.before}`);
  if (w.after) parts.push(`→${w.after}`);
  const long = ` session ${screen.cols}×${screen.rows}: ${parts.join(" ")} hidden `;
  if (long.length <= room) return long;
  const short = ` ${parts.join(" ")} hidden `;
  if (short.length <= room) return short;
  const tiny = ` ${parts.join("")} `;
  return tiny.length <= room ? tiny : "";
}

/**
 * Screen rows [from, to) as rows of the window [from, to), clipped to it
 * (empty: [n, n]).
 */
export function windowRows(w: PaneWindow, rows: readonly [number, number]): [number, number] {
  const from = Math.max(0, Math.min(w.rows, rows[0] - w.top));
  const to = Math.max(from, Math.min(w.rows, rows[1] - w.top));
  return [from, to];
}
