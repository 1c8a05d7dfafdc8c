/**
 * diff(prev, next) → the bytes that turn the host screen showing `prev`
 * into `next` (docs/tui.md). Only changed cells are written; a size
 * change (or no previous frame) repaints everything; "" means nothing to
 * write. Pure.
 *
 * Invariants: unless told `continued`, the pen (SGR) and cursor position
 * are unknown at the start of a diff, so each diff is correct on its own;
 * every diff leaves the pen reset and, when the frame has a cursor, the
 * cursor shown at it (what `continued` starts from); a wide character is
 * rewritten whenever either of its two cells changed.
 */

import {
  BLINK,
  BOLD,
  type Color,
  DIM,
  type Frame,
  INVERSE,
  INVISIBLE,
  ITALIC,
  RGB_FLAG,
  STRIKE,
  UNDERLINE,
} from "./frame.ts";

export interface DiffOptions {
  /** Wrap the update in synchronized output (mode 2026) so it appears at once. */
  readonly sync?: boolean;
  /**
   * Rows [from, to): the caller knows every other row equals `prev` (only
   * the pane's changed rows were redrawn); a repaint ignores it.
   */
  readonly rows?: readonly [number, number] | undefined;
  /**
   * The host terminal is as the diff into `prev` left it (nothing else
   * moved its cursor or set its pen since): a change that starts at the
   * cursor is written from there, and a run of cells that ends where the
   * cursor goes needs no move, no hiding and no synchronized output. A
   * typed key's echo is then the character alone, as a terminal's own
   * echo is (docs/tui.md, "Frames and the diff").
   */
  readonly continued?: boolean;
}

export const SYNC_BEGIN = "\x1b[?2026h";
export const SYNC_END = "\x1b[?2026l";
const HIDE_CURSOR = "\x1b[?25l";
const SHOW_CURSOR = "\x1b[?25h";

export function diff(prev: Frame | null, next: Frame, options: DiffOptions = {}): string {
  const full = prev === null || prev.cols !== next.cols || prev.rows !== next.rows;
  let body = full ? "\x1b[0m\x1b[H\x1b[2J" : "";
  // What the terminal is known to show now: the cursor where the last diff left it, the pen reset.
  const known = !full && options.continued ? prev!.cursor : null;
  let penFg = known ? -1 : -2;
  let penBg = known ? -1 : -2;
  let penAttrs = known ? 0 : -1;
  let cx = known ? known.x : -1;
  let cy = known ? known.y : -1;
  /** The cursor jumped somewhere to write (a move, or a clear): hidden meanwhile. */
  let jumped = full;
  /** Only ASCII written since the last move: (cx, cy) is where the host's cursor is. */
  let sure = true;
  const cols = next.cols;
  const [from, to] = full || !options.rows ? [0, next.rows] : options.rows;
  for (let y = Math.max(0, from); y < Math.min(next.rows, to); y++) {
    const row = y * cols;
    for (let x = 0; x < cols; x++) {
      const i = row + x;
      const w = next.widths[i]!;
      if (w === 0) continue; // drawn with its wide start
      if (
        full
          ? isBlank(next, i)
          : !changed(prev!, next, i) && !(w === 2 && changed(prev!, next, i + 1))
      ) {
        continue;
      }
      if (cx !== x || cy !== y) {
        body += `\x1b[${y + 1};${x + 1}H`;
        jumped = true;
        sure = true;
      }
      const fg = next.fg[i]!;
      const bg = next.bg[i]!;
      const attrs = next.attrs[i]!;
      if (fg !== penFg || bg !== penBg || attrs !== penAttrs) {
        body += sgr(fg, bg, attrs);
        penFg = fg;
        penBg = bg;
        penAttrs = attrs;
      }
      const ch = next.chars[i]!;
      const code = ch === "" ? 0 : ch.charCodeAt(0);
      body += code < 0x20 ? " " : ch;
      // A width the host terminal may count otherwise (an emoji, an ambiguous one): where the
      // cursor ends is not known for sure.
      if (code >= 0x7f || ch.length > 1) sure = false;
      cx = x + (w === 2 ? 2 : 1);
      cy = y;
      if (cx >= cols) cx = -1; // pending wrap: position unknown
    }
  }
  const cursorMoved = full || !sameCursor(prev!, next);
  if (body === "" && !cursorMoved) return "";
  let out = body;
  if (body !== "" && (penFg !== -1 || penBg !== -1 || penAttrs !== 0) && penAttrs !== -1) {
    out += "\x1b[0m";
  }
  const c = next.cursor;
  if (c) {
    if (!sure || cx !== c.x || cy !== c.y) out += `\x1b[${c.y + 1};${c.x + 1}H`;
    // Hidden while it jumps about; left alone when known shown and it only wrote where it stood.
    if (jumped) out = HIDE_CURSOR + out + SHOW_CURSOR;
    else if (!known) out += SHOW_CURSOR;
  } else if (full || prev!.cursor !== null || body !== "") {
    out = HIDE_CURSOR + out;
  }
  // A run written where the cursor stood shows at once, whole: nothing to synchronize.
  return options.sync && jumped ? SYNC_BEGIN + out + SYNC_END : out;
}

function changed(a: Frame, b: Frame, i: number): boolean {
  return a.chars[i] !== b.chars[i] || a.widths[i] !== b.widths[i] || a.fg[i] !== b.fg[i] ||
    a.bg[i] !== b.bg[i] || a.attrs[i] !== b.attrs[i];
}

function isBlank(f: Frame, i: number): boolean {
  return f.chars[i] === " " && f.widths[i] === 1 && f.fg[i] === -1 && f.bg[i] === -1 &&
    (f.attrs[i]! & (INVERSE | UNDERLINE | STRIKE)) === 0;
}

function sameCursor(a: Frame, b: Frame): boolean {
  const p = a.cursor;
  const q = b.cursor;
  return p === q || (p !== null && q !== null && p.x === q.x && p.y === q.y);
}

const ATTR_CODES: readonly (readonly [number, string])[] = [
  [BOLD, "1"],
  [DIM, "2"],
  [ITALIC, "3"],
  [UNDERLINE, "4"],
  [BLINK, "5"],
  [INVERSE, "7"],
  [INVISIBLE, "8"],
  [STRIKE, "9"],
];

/** The SGR sequence that sets exactly this style from any previous one. */
export function sgr(fg: Color, bg: Color, attrs: number): string {
  let p = "0";
  for (const [bit, code] of ATTR_CODES) if (attrs & bit) p += ";" + code;
  p += color(fg, 30) + color(bg, 40);
  return `\x1b[${p}m`;
}

function color(c: Color, base: number): string {
  if (c < 0) return "";
  if (c >= RGB_FLAG) {
    const v = c & 0xffffff;
    return `;${base + 8};2;${v >> 16};${(v >> 8) & 0xff};${v & 0xff}`;
  }
  if (c < 8) return `;${base + c}`;
  if (c < 16) return `;${base + 60 + c - 8}`;
  return `;${base + 8};5;${c}`;
}
