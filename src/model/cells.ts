/**
 * A screen as cells: the colour and attribute encoding shared by the
 * session layer (which reads an emulator's cells) and the TUI (which draws
 * them). Plain data only: no runtime imports.
 */

/** -1 default, 0–255 palette, RGB as `RGB_FLAG | 0xRRGGBB`. */
export type Color = number;
export const DEFAULT_COLOR = -1;
export const RGB_FLAG = 0x1000000;

export function rgb(value: number): Color {
  return RGB_FLAG | (value & 0xffffff);
}

export const BOLD = 1;
export const DIM = 2;
export const ITALIC = 4;
export const UNDERLINE = 8;
export const BLINK = 16;
export const INVERSE = 32;
export const INVISIBLE = 64;
export const STRIKE = 128;

export interface CellCursor {
  readonly x: number;
  readonly y: number;
}

/**
 * A grid of cells in parallel typed arrays (index `y * cols + x`), so that
 * a 200x60 screen is a few allocations, not 12,000 objects: a character and
 * its width (2 for a wide character, then 0, empty text, for its
 * continuation), the colours and the attribute bits. The session layer
 * reads an emulator into one; the TUI's Frame is one it draws on.
 */
export class Cells {
  readonly cols: number;
  readonly rows: number;
  readonly chars: string[];
  readonly widths: Uint8Array;
  readonly fg: Int32Array;
  readonly bg: Int32Array;
  readonly attrs: Uint8Array;
  /** Where the cursor is shown, or null (hidden). */
  cursor: CellCursor | null = null;

  constructor(cols: number, rows: number) {
    this.cols = Math.max(0, Math.floor(cols));
    this.rows = Math.max(0, Math.floor(rows));
    const n = this.cols * this.rows;
    this.chars = new Array<string>(n).fill(" ");
    this.widths = new Uint8Array(n).fill(1);
    this.fg = new Int32Array(n).fill(DEFAULT_COLOR);
    this.bg = new Int32Array(n).fill(DEFAULT_COLOR);
    this.attrs = new Uint8Array(n);
  }

  index(x: number, y: number): number {
    return y * this.cols + x;
  }

  inside(x: number, y: number): boolean {
    return x >= 0 && y >= 0 && x < this.cols && y < this.rows;
  }

  /** Becomes a copy of `other` (same size), cursor included. */
  copyFrom(other: Cells): void {
    this.copyRowsFrom(other, 0, this.rows);
    this.cursor = other.cursor;
  }

  /**
   * Rows y0..y1 (exclusive) become a copy of `other`'s (same size); the
   * cursor is left. The range is clipped to the grid: one of another size's
   * rows copies what of it there is here, or nothing.
   */
  copyRowsFrom(other: Cells, y0: number, y1: number): void {
    if (other.cols !== this.cols || other.rows !== this.rows) throw new Error("Grid size differs");
    const top = Math.max(0, Math.min(this.rows, Math.floor(y0)));
    const end = Math.max(top, Math.min(this.rows, Math.floor(y1)));
    if (top >= end) return;
    const from = this.index(0, top);
    const to = this.index(0, end);
    for (let i = from; i < to; i++) this.chars[i] = other.chars[i]!;
    this.widths.set(other.widths.subarray(from, to), from);
    this.fg.set(other.fg.subarray(from, to), from);
    this.bg.set(other.bg.subarray(from, to), from);
    this.attrs.set(other.attrs.subarray(from, to), from);
  }

  /** Blank again, cursor hidden: lets a reader reuse one grid instead of allocating. */
  clear(): void {
    this.blank(0, this.chars.length);
    this.cursor = null;
  }

  /** Cells `from`..`to` (indices, exclusive) blank again: an emulator's empty cell. */
  blank(from: number, to: number): void {
    if (from >= to) return;
    this.chars.fill(" ", from, to);
    this.widths.fill(1, from, to);
    this.fg.fill(DEFAULT_COLOR, from, to);
    this.bg.fill(DEFAULT_COLOR, from, to);
    this.attrs.fill(0, from, to);
  }

  /** The visible text of row y (continuation cells skipped), for tests and debugging. */
  rowText(y: number): string {
    let out = "";
    for (let x = 0; x < this.cols; x++) out += this.chars[this.index(x, y)];
    return out;
  }

  /** All rows as text, trailing blanks trimmed. */
  toText(): string {
    const rows: string[] = [];
    for (let y = 0; y < this.rows; y++) rows.push(this.rowText(y).trimEnd());
    return rows.join("\n");
  }
}

/** Mouse reports a program asked for (DECSET 9, 1000, 1002, 1003). */
export type MouseTracking = "none" | "x10" | "vt200" | "drag" | "any";

/** What the program in a session asked of its input (how keys, pastes and the mouse are encoded). */
export interface InputModes {
  /** DECCKM: cursor keys send `ESC O A` instead of `ESC [ A`. */
  readonly applicationCursorKeys: boolean;
  /** Mode 2004: pastes are wrapped in `ESC[200~` … `ESC[201~`. */
  readonly bracketedPaste: boolean;
  readonly mouseTracking: MouseTracking;
  /** "DEFAULT" (X10 bytes) or "SGR" (and the other encodings xterm knows). */
  readonly mouseEncoding: string;
}
