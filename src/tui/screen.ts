/**
 * Reads a session's emulator (xterm headless buffer) into the pure frame
 * model the pane view copies: characters, widths, colours, attributes and
 * the cursor. Runtime side (it touches xterm); src/tui never does.
 *
 * PLATFORM §2: style checks return numbers (0/1), getFgColor() is a palette
 * index or 0xRRGGBB depending on the colour mode; one reused null cell.
 */

import type { ChangedRows, XTerm } from "../session/terminal.ts";
import { cursorHidden } from "../session/xterm_internals.ts";
import {
  BLINK,
  BOLD,
  DEFAULT_COLOR,
  DIM,
  Frame,
  INVERSE,
  INVISIBLE,
  ITALIC,
  rgb,
  STRIKE,
  UNDERLINE,
} from "./frame.ts";

export interface ScreenRead {
  readonly frame: Frame;
  /** The scrollback offset actually used (clamped to what exists). */
  readonly offset: number;
  /** The rows read again, [from, to), the rest of `reuse` kept as it was; null: all of it. */
  readonly rows: readonly [number, number] | null;
}

/** How far up the scrollback of this emulator goes (0 on the alternate screen). */
export function maxScroll(xterm: XTerm): number {
  const b = xterm.buffer.active;
  return b.type === "alternate" ? 0 : b.baseY;
}

/**
 * The emulator's viewport `offset` lines above the bottom, as a frame of
 * the emulator's size; the cursor is set when the live screen is shown and
 * the child has not hidden it.
 *
 * `changed`: when `reuse` is this emulator's live viewport as last read,
 * the rows changed since (HeadlessTerminal.takeChangedRows): only those are
 * read again — a spinner or an echo touches one row of sixty.
 */
export function readScreen(
  xterm: XTerm,
  offset = 0,
  reuse?: Frame | null,
  changed: ChangedRows = "all",
): ScreenRead {
  const b = xterm.buffer.active;
  const used = Math.max(0, Math.min(offset, maxScroll(xterm)));
  const top = b.baseY - used;
  const cols = xterm.cols;
  const rows = xterm.rows;
  let frame: Frame;
  let y0 = 0;
  let y1 = rows;
  let partial = false;
  if (reuse && reuse.cols === cols && reuse.rows === rows) {
    frame = reuse;
    if (changed === "all" || used > 0) frame.clear();
    else {
      y0 = changed === null ? rows : Math.max(0, changed.start);
      y1 = changed === null ? rows : Math.min(rows, changed.end + 1);
      frame.clearRows(y0, y1);
      frame.cursor = null;
      partial = true;
    }
  } else {
    frame = new Frame(cols, rows);
  }
  const cell = b.getNullCell();
  for (let y = y0; y < y1; y++) {
    const line = b.getLine(top + y);
    if (!line) continue;
    const row = y * cols;
    for (let x = 0; x < cols; x++) {
      if (!line.getCell(x, cell)) break;
      const i = row + x;
      const width = cell.getWidth();
      if (width === 0) {
        frame.chars[i] = "";
        frame.widths[i] = 0;
      } else {
        const ch = cell.getChars();
        frame.chars[i] = ch === "" ? " " : ch;
        frame.widths[i] = width === 2 && x + 1 < cols ? 2 : 1;
      }
      frame.fg[i] = cell.isFgRGB()
        ? rgb(cell.getFgColor())
        : cell.isFgPalette()
        ? cell.getFgColor()
        : DEFAULT_COLOR;
      frame.bg[i] = cell.isBgRGB()
        ? rgb(cell.getBgColor())
        : cell.isBgPalette()
        ? cell.getBgColor()
        : DEFAULT_COLOR;
      let attrs = 0;
      if (cell.isBold()) attrs |= BOLD;
      if (cell.isDim()) attrs |= DIM;
      if (cell.isItalic()) attrs |= ITALIC;
      if (cell.isUnderline()) attrs |= UNDERLINE;
      if (cell.isBlink()) attrs |= BLINK;
      if (cell.isInverse()) attrs |= INVERSE;
      if (cell.isInvisible()) attrs |= INVISIBLE;
      if (cell.isStrikethrough()) attrs |= STRIKE;
      frame.attrs[i] = attrs;
    }
  }
  if (used === 0 && !cursorHidden(xterm)) frame.cursor = { x: b.cursorX, y: b.cursorY };
  return { frame, offset: used, rows: partial ? [y0, y1] : null };
}
