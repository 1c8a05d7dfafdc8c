/**
 * The selected session's live screen, copied cell by cell (colours,
 * attributes, wide characters) from a Frame the runtime read out of the
 * session's emulator, clipped to the pane. The child's cursor becomes the
 * host cursor in terminal mode.
 */

import type { TuiState } from "../../../model/tui.ts";
import type { SessionView } from "../../../model/session.ts";
import type { Frame } from "../frame.ts";
import type { Rect } from "../layout.ts";
import { stringWidth } from "../../../util/width.ts";
import { theme } from "./theme.ts";
import { answerable, drawAnswerPanel } from "./answer.ts";
import { type Keymap, resolveKeymap } from "../keymap.ts";
import { drawCopyMarks } from "./copy_marks.ts";
import {
  type PaneWindow,
  paneWindow,
  windowAtBottom,
  windowLabel,
  windowRows,
} from "./pane_window.ts";

const DEFAULT_KEYMAP = resolveKeymap().keymap;

/** A session that printed nothing this long after it started gets a word in its pane. */
export const SLOW_START_MS = 3000;

/** The program a session runs, by name (`bash` for `/bin/bash -l`). */
function programOf(row: SessionView): string {
  return row.command.split(/\s+/)[0]!.split("/").at(-1) || row.command;
}

/** A shell that has printed nothing yet (not even its prompt): its rc files may hang. */
function startingShell(row: SessionView): boolean {
  return row.status === "running" && row.outputAt === 0 && /^[a-z]*sh$/.test(programOf(row));
}

/** Shells that have printed nothing yet: the clock ticks for their start-up hint. */
export function anythingStarting(state: Pick<TuiState, "sessions">): boolean {
  return state.sessions.some(startingShell);
}

/**
 * Copies rows `firstRow`..`endRow` (exclusive) of the window `w` of `src` into
 * `dst` at the rectangle's origin, clipped to it. A wide character cut by
 * the window's left or right edge is drawn as a space: whole or not at all.
 */
export function blit(
  dst: Frame,
  r: Rect,
  src: Frame,
  firstRow = 0,
  endRow = src.rows,
  w: PaneWindow = paneWindow(src, r.width, r.height),
): void {
  const h = Math.min(w.rows, dst.rows - r.y, endRow);
  const width = Math.min(w.cols, dst.cols - r.x);
  for (let y = Math.max(0, firstRow); y < h; y++) {
    const from = (w.top + y) * src.cols + w.left;
    const to = (r.y + y) * dst.cols + r.x;
    for (let x = 0; x < width; x++) {
      const i = from + x;
      const j = to + x;
      const cut = (src.widths[i] === 2 && x + 1 >= width) || (src.widths[i] === 0 && x === 0);
      dst.chars[j] = cut ? " " : src.chars[i]!;
      dst.widths[j] = cut ? 1 : src.widths[i]!;
      dst.fg[j] = src.fg[i]!;
      dst.bg[j] = src.bg[i]!;
      dst.attrs[j] = src.attrs[i]!;
    }
  }
}

/**
 * `rows` [from, to) of the screen: only those changed since `frame` was
 * drawn with the same state, the previous read of the same screen and the
 * same window of it (pane_window.ts; the caller checks).
 * `focused` false (a tile the keys do not go to): no cursor, no answer panel.
 * `note`: where the pane says what it cannot show of a bigger screen (a
 * tile's bottom border); default: over its top-right corner.
 */
export function drawPane(
  frame: Frame,
  r: Rect,
  state: TuiState,
  row: SessionView | null,
  screen: Frame | null,
  rows?: readonly [number, number],
  keymap?: Keymap,
  focused = true,
  note?: Rect,
): void {
  if (r.width <= 0 || r.height <= 0) return;
  if (!row || !screen) {
    frame.fill(r.x, r.y, r.width, r.height);
    const text = state.sessions.length === 0 ? "Press n to start a shell" : "";
    const x = r.x + Math.max(0, Math.floor((r.width - stringWidth(text)) / 2));
    frame.text(x, r.y + Math.floor(r.height / 2), text, theme.dim, r.x + r.width);
    return;
  }
  // A screen bigger than the pane (another client's size): the rows around the cursor.
  const w = paneWindow(screen, r.width, r.height, windowAtBottom(state, row.id));
  const [y0, y1] = rows ? windowRows(w, rows) : [0, r.height];
  if (y0 < y1) frame.fill(r.x, r.y + y0, r.width, y1 - y0);
  blit(frame, r, screen, y0, y1, w);
  if (state.copy?.id === row.id) {
    drawCopyMarks(frame, r, state.copy, screen, state.scroll[row.id] ?? 0, w);
  }
  const scrolled = (state.scroll[row.id] ?? 0) > 0;
  const scrollLabel = scrolled ? ` ↑ ${state.scroll[row.id]} lines · pgdown ` : "";
  // What the pane cannot show: on `note` (a tile's bottom border), else on its top-right corner
  // with the scrollback's place.
  const room = note ? note.width : r.width - stringWidth(scrollLabel);
  const hidden = windowLabel(w, screen, room);
  const label = note ? scrollLabel : scrollLabel + hidden;
  if (label) {
    const x = r.x + Math.max(0, r.width - stringWidth(label));
    frame.text(x, r.y, label, theme.tabActive, r.x + r.width);
  }
  if (note && hidden) {
    const x = note.x + Math.max(0, note.width - stringWidth(hidden));
    frame.text(x, note.y, hidden, theme.tabActive, note.x + note.width);
  }
  const quiet = state.now - row.createdAt;
  if (startingShell(row) && quiet >= SLOW_START_MS) {
    // A shell whose rc files hang shows nothing at all: say so rather than stay blank.
    const text = `waiting for ${programOf(row)} to start — slow rc files? (${
      Math.floor(quiet / 1000)
    } s, nothing printed)`;
    const x = r.x + Math.max(0, Math.floor((r.width - stringWidth(text)) / 2));
    frame.text(x, r.y + Math.floor(r.height / 2), text, theme.dim, r.x + r.width);
  }
  if (row.status === "exited") {
    const how = row.signal ? `signal ${row.signal}` : `exit ${row.exitCode ?? "?"}`;
    const label = ` ${row.name} ended (${how}) · x removes · W restarts `;
    frame.line(r.x, r.y + r.height - 1, r.width, [{ text: label, style: theme.tabActive }]);
  }
  // A blocked session's question and options, over the bottom of its screen (navigation mode).
  if (!focused) return;
  if (state.mode === "navigation" && state.overlay === null && !scrolled && answerable(row)) {
    drawAnswerPanel(frame, r, row, keymap ?? DEFAULT_KEYMAP);
  }
  const c = screen.cursor;
  const x = c ? c.x - w.left : -1;
  const y = c ? c.y - w.top : -1;
  if (state.mode === "terminal" && c && !scrolled && x >= 0 && y >= 0 && x < w.cols && y < w.rows) {
    frame.cursor = { x: r.x + x, y: r.y + y };
  }
}
