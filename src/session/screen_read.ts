/**
 * Reads a session's emulator (xterm headless buffer) into a plain cell
 * grid (model/cells.ts): characters, widths, colours, attributes and the
 * cursor. The xterm object never leaves src/session: the TUI gets cells
 * through Session.screenReader(), the input modes through
 * Session.inputModes().
 *
 * Rows are decoded from xterm's cell words (three a cell, row_codec.ts),
 * as the scrollback store's are (liveRow, storedRow); through its public
 * cells only when those internals are missing (cellRow: xterm's style
 * checks return numbers (0/1), getFgColor() is a palette index or
 * 0xRRGGBB depending on the colour mode; one reused null cell). Each row
 * is written whole, the cells past its end blank.
 */

import {
  BLINK,
  BOLD,
  type Cells,
  type Color,
  DEFAULT_COLOR,
  DIM,
  INVERSE,
  INVISIBLE,
  ITALIC,
  rgb,
  STRIKE,
  UNDERLINE,
} from "../model/cells.ts";
import {
  CODEPOINT_MASK,
  codepointText,
  COMBINED,
  type DecodedRow,
  readerFg,
  type RowSource,
  WIDTH_SHIFT,
} from "./row_codec.ts";
import type { ChangedRows, HeadlessTerminal, RowTracker } from "./terminal.ts";
import { cursorHidden } from "./xterm_internals.ts";

/** What a cell's colour is read from (xterm's buffer cell). */
export interface ColoredCell {
  isFgRGB(): number | boolean;
  isFgPalette(): number | boolean;
  getFgColor(): number;
}

/** A cell's foreground in the model/cells.ts encoding. */
export function fgColor(cell: ColoredCell): Color {
  return cell.isFgRGB()
    ? rgb(cell.getFgColor())
    : cell.isFgPalette()
    ? cell.getFgColor()
    : DEFAULT_COLOR;
}

export interface ScreenRead<G extends Cells> {
  readonly grid: G;
  /** The scrollback offset actually used (clamped to what exists). */
  readonly offset: number;
  /** The rows read again, [from, to), the rest of `reuse` kept as it was; null: all of it. */
  readonly rows: readonly [number, number] | null;
}

/** How far up the scrollback goes: the store's rows and the emulator's (0 on the alternate screen). */
export function maxScroll(terminal: HeadlessTerminal): number {
  const b = terminal.buffer.active;
  return b.type === "alternate" ? 0 : terminal.history.stored + b.baseY;
}

/**
 * The emulator's viewport `offset` lines above the bottom, as a grid of
 * the emulator's size (`reuse` when it has that size, else `make`); the
 * cursor is set when the live screen is shown and the child has not
 * hidden it.
 *
 * `changed`: when `reuse` is this emulator's live viewport as last read,
 * the rows changed since (a RowTracker's take()): only those are read
 * again — a spinner or an echo touches one row of sixty.
 */
export function readScreen<G extends Cells>(
  terminal: HeadlessTerminal,
  make: (cols: number, rows: number) => G,
  offset = 0,
  reuse?: G | null,
  changed: ChangedRows = "all",
): ScreenRead<G> {
  const xterm = terminal.xterm;
  const b = terminal.buffer.active;
  const used = Math.max(0, Math.min(offset, maxScroll(terminal)));
  // Rows of the store come first (history.ts); none count on the alternate screen.
  const stored = b.type === "alternate" ? 0 : terminal.history.stored;
  const top = stored + b.baseY - used;
  const cols = xterm.cols;
  const rows = xterm.rows;
  let grid: G;
  let y0 = 0;
  let y1 = rows;
  let partial = false;
  if (reuse && reuse.cols === cols && reuse.rows === rows) {
    grid = reuse;
    if (changed !== "all" && used === 0) {
      y0 = changed === null ? rows : Math.max(0, changed.start);
      y1 = changed === null ? rows : Math.min(rows, changed.end + 1);
      partial = true;
    }
  } else {
    grid = make(cols, rows);
  }
  grid.cursor = null;
  // Each row is written whole, the cells past its end blank: no clearing first.
  const raw = terminal.rawLine;
  for (let y = y0; y < y1; y++) {
    const at = y * cols;
    if (top + y < stored) {
      storedRow(terminal.history.row(top + y), grid, at, cols);
      continue;
    }
    if (raw) {
      const line = raw(top + y - stored);
      if (line) liveRow(line, grid, at, cols);
      else grid.blank(at, at + cols);
    } else {
      const line = b.getLine(top + y - stored);
      if (line) cellRow(line, b.getNullCell(), grid, at, cols);
      else grid.blank(at, at + cols);
    }
  }
  if (used === 0 && !cursorHidden(xterm)) grid.cursor = { x: b.cursorX, y: b.cursorY };
  return { grid, offset: used, rows: partial ? [y0, y1] : null };
}

/** What cellRow reads of xterm's public buffer API. */
type PublicLine = NonNullable<ReturnType<HeadlessTerminal["xterm"]["buffer"]["active"]["getLine"]>>;
type PublicCell = ReturnType<HeadlessTerminal["xterm"]["buffer"]["active"]["getNullCell"]>;

/**
 * A row of xterm's buffer into grid row `row` through its public
 * API (a CellData per cell): when its internals are missing (rawLine null).
 */
export function cellRow(
  line: PublicLine,
  cell: PublicCell,
  grid: Cells,
  row: number,
  cols: number,
): void {
  for (let x = 0; x < cols; x++) {
    if (!line.getCell(x, cell)) return grid.blank(row + x, row + cols);
    const i = row + x;
    const width = cell.getWidth();
    if (width === 0) {
      grid.chars[i] = "";
      grid.widths[i] = 0;
    } else {
      const ch = cell.getChars();
      grid.chars[i] = ch === "" ? " " : ch;
      grid.widths[i] = width === 2 && x + 1 < cols ? 2 : 1;
    }
    grid.fg[i] = fgColor(cell);
    grid.bg[i] = cell.isBgRGB()
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
    grid.attrs[i] = attrs;
  }
}

/**
 * The same row from its cell words (rawLine): what cellRow reads, at a
 * fraction of its cost (no CellData, no getter per attribute).
 */
export function liveRow(line: RowSource, grid: Cells, row: number, cols: number): void {
  const d = line._data;
  const n = Math.min(line.length, cols);
  for (let x = 0; x < n; x++) {
    const i = row + x;
    const j = x * 3;
    const content = d[j]!;
    const width = content >>> WIDTH_SHIFT;
    if (width === 0) {
      grid.chars[i] = "";
      grid.widths[i] = 0;
    } else {
      const ch = content & COMBINED
        ? line._combined[x] ?? ""
        : codepointText(content & CODEPOINT_MASK);
      grid.chars[i] = ch === "" ? " " : ch;
      grid.widths[i] = width === 2 && x + 1 < cols ? 2 : 1;
    }
    const bg = d[j + 2]!;
    const fg = readerFg(line, x, d[j + 1]!, bg);
    grid.fg[i] = color(fg);
    grid.bg[i] = color(bg);
    grid.attrs[i] = attrsOf(fg, bg);
  }
  grid.blank(row + n, row + cols);
}

/** The attribute flags of a cell's fg and bg words (xterm's FgFlags and BgFlags). */
function attrsOf(fg: number, bg: number): number {
  let attrs = 0;
  if (fg & 0x8000000) attrs |= BOLD;
  if (bg & 0x8000000) attrs |= DIM;
  if (bg & 0x4000000) attrs |= ITALIC;
  if (fg & 0x10000000) attrs |= UNDERLINE;
  if (fg & 0x20000000) attrs |= BLINK;
  if (fg & 0x4000000) attrs |= INVERSE;
  if (fg & 0x40000000) attrs |= INVISIBLE;
  if (fg & 0x80000000) attrs |= STRIKE;
  return attrs;
}

/** xterm's colour modes in its fg/bg words (Attributes.CM_*). */
const CM_MASK = 0x3000000;
const CM_RGB = 0x3000000;

function color(word: number): number {
  const mode = word & CM_MASK;
  return mode === CM_RGB ? rgb(word & 0xffffff) : mode === 0 ? DEFAULT_COLOR : word & 0xff;
}

/**
 * A row of the compact store into grid row `at`, the way the loop
 * above reads one of xterm's (CellData's getters on the same three words).
 */
function storedRow(row: DecodedRow, grid: Cells, at: number, cols: number): void {
  const n = Math.min(row.used, cols);
  for (let x = 0; x < n; x++) {
    const i = at + x;
    const width = row.content[x]! >>> 22;
    if (width === 0) {
      grid.chars[i] = "";
      grid.widths[i] = 0;
    } else {
      const ch = row.chars(x);
      grid.chars[i] = ch === "" ? " " : ch;
      grid.widths[i] = width === 2 && x + 1 < cols ? 2 : 1;
    }
    const fg = row.fg[x]!;
    const bg = row.bg[x]!;
    grid.fg[i] = color(fg);
    grid.bg[i] = color(bg);
    grid.attrs[i] = attrsOf(fg, bg);
  }
  grid.blank(at + n, at + cols);
}

/**
 * One reader of one session's screen (a TUI client's pane): reads the
 * viewport into the caller's grid, again only the rows redrawn since its
 * own last live read into that same grid. Dispose it when the pane shows
 * another session.
 */
export class ScreenReader<G extends Cells> implements Disposable {
  readonly #terminal: HeadlessTerminal;
  readonly #rows: RowTracker;
  readonly #make: (cols: number, rows: number) => G;
  /** The grid holding this emulator's live viewport as last read, if any. */
  #live: G | null = null;

  constructor(terminal: HeadlessTerminal, make: (cols: number, rows: number) => G) {
    this.#terminal = terminal;
    this.#rows = terminal.trackRows();
    this.#make = make;
  }

  /** The viewport `offset` lines above the bottom, into `reuse` when it fits. */
  read(offset = 0, reuse: G | null = null): ScreenRead<G> {
    const changed = this.#rows.take();
    const read = readScreen(
      this.#terminal,
      this.#make,
      offset,
      reuse,
      reuse !== null && reuse === this.#live ? changed : "all",
    );
    this.#live = read.offset === 0 ? read.grid : null;
    return read;
  }

  /** How far up the scrollback goes (0 on the alternate screen). */
  maxScroll(): number {
    return maxScroll(this.#terminal);
  }

  [Symbol.dispose](): void {
    this.#rows[Symbol.dispose]();
    this.#live = null;
  }
}
