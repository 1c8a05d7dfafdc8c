/**
 * The frame model (docs/tui.md): rows of styled cells, what one screenful of
 * the TUI looks like. Views draw into a Frame; diff() compares two frames.
 *
 * Pure: no runtime imports. Cells live in parallel typed arrays so that a
 * 200x60 frame is a few allocations, not 12,000 objects.
 *
 * Invariants: a wide character (width 2) is followed by a continuation cell
 * (width 0, empty text); overwriting either half blanks the other half.
 */

import { charWidth, stringWidth, truncate } from "../../util/width.ts";

export {
  BLINK,
  BOLD,
  type Color,
  DEFAULT_COLOR,
  DIM,
  INVERSE,
  INVISIBLE,
  ITALIC,
  rgb,
  RGB_FLAG,
  STRIKE,
  UNDERLINE,
} from "../../model/cells.ts";
import { type CellCursor, Cells, type Color, DEFAULT_COLOR } from "../../model/cells.ts";

export interface Style {
  readonly fg?: Color;
  readonly bg?: Color;
  /** Bit set of BOLD, DIM, ... */
  readonly attrs?: number;
}

/** A run of text in one style; a line is a list of spans. */
export interface Span {
  readonly text: string;
  readonly style?: Style;
}
export type StyledLine = readonly Span[];

export type FrameCursor = CellCursor;

/** A Cells grid the views draw on (styles, text, wide characters kept whole). */
export class Frame extends Cells {
  /**
   * Puts one character of `width` columns at (x, y). A wide character that
   * would not fit before `limit` becomes a space. Returns the next x.
   */
  put(x: number, y: number, ch: string, width: number, style: Style, limit = this.cols): number {
    if (!this.inside(x, y) || x >= limit) return x + Math.max(width, 1);
    if (width === 2 && x + 1 >= Math.min(limit, this.cols)) {
      ch = " ";
      width = 1;
    }
    this.#breakWide(x, y);
    if (width === 2) this.#breakWide(x + 1, y);
    const i = this.index(x, y);
    this.chars[i] = ch;
    this.widths[i] = width === 2 ? 2 : 1;
    this.fg[i] = style.fg ?? DEFAULT_COLOR;
    this.bg[i] = style.bg ?? DEFAULT_COLOR;
    this.attrs[i] = style.attrs ?? 0;
    if (width === 2) {
      const j = i + 1;
      this.chars[j] = "";
      this.widths[j] = 0;
      this.fg[j] = this.fg[i]!;
      this.bg[j] = this.bg[i]!;
      this.attrs[j] = this.attrs[i]!;
    }
    return x + (width === 2 ? 2 : 1);
  }

  /**
   * Writes `text` from (x, y), clipped at `limit` (exclusive column).
   * Combining marks join the previous cell. Returns the next x.
   */
  text(x: number, y: number, text: string, style: Style = {}, limit = this.cols): number {
    let prev = -1;
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      const w = charWidth(cp);
      if (w === 0) {
        if (cp >= 0x20 && prev >= 0) this.chars[prev] += ch;
        continue;
      }
      if (x >= limit) break;
      prev = this.inside(x, y) ? this.index(x, y) : -1;
      x = this.put(x, y, ch, w, style, limit);
    }
    return x;
  }

  /** Draws a styled line from (x, y) within `width` columns; pads the rest with `pad`. */
  line(x: number, y: number, width: number, line: StyledLine, pad: Style = {}): number {
    const limit = Math.min(this.cols, x + width);
    let cx = x;
    for (const span of line) {
      if (cx >= limit) break;
      cx = this.text(cx, y, span.text, span.style ?? pad, limit);
    }
    this.fill(cx, y, limit - cx, 1, pad);
    return cx;
  }

  /** Fills a rectangle with `ch` (one column wide) in `style`. */
  fill(x: number, y: number, width: number, height: number, style: Style = {}, ch = " "): void {
    const x0 = Math.max(0, x);
    const y0 = Math.max(0, y);
    const x1 = Math.min(this.cols, x + width);
    const y1 = Math.min(this.rows, y + height);
    if (x0 >= x1) return;
    const fg = style.fg ?? DEFAULT_COLOR;
    const bg = style.bg ?? DEFAULT_COLOR;
    const attrs = style.attrs ?? 0;
    for (let yy = y0; yy < y1; yy++) {
      // Only the edges can cut a wide character in two.
      this.#breakWide(x0, yy);
      this.#breakWide(x1 - 1, yy);
      const from = this.index(x0, yy);
      const to = this.index(x1, yy);
      this.chars.fill(ch, from, to);
      this.widths.fill(1, from, to);
      this.fg.fill(fg, from, to);
      this.bg.fill(bg, from, to);
      this.attrs.fill(attrs, from, to);
    }
  }

  /** When (x, y) is one half of a wide character, blanks the other half. */
  #breakWide(x: number, y: number): void {
    if (!this.inside(x, y)) return;
    const i = this.index(x, y);
    if (this.widths[i] === 0 && x > 0) {
      this.chars[i - 1] = " ";
      this.widths[i - 1] = 1;
    } else if (this.widths[i] === 2 && x + 1 < this.cols) {
      this.chars[i + 1] = " ";
      this.widths[i + 1] = 1;
    }
  }
}

/** Total display width of a styled line. */
export function lineText(line: StyledLine): string {
  return line.map((s) => s.text).join("");
}

/** Cuts a styled line to `width` columns, ending in `…` when something was cut. */
export function clipLine(line: StyledLine, width: number): StyledLine {
  const total = line.reduce((w, s) => w + stringWidth(s.text), 0);
  if (total <= width) return line;
  const out: Span[] = [];
  let room = width;
  for (const span of line) {
    const w = stringWidth(span.text);
    if (w < room) {
      out.push(span);
      room -= w;
      continue;
    }
    out.push({ ...span, text: truncate(span.text, room) });
    break;
  }
  return out;
}
