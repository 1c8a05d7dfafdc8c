/**
 * diff(prev, next) → the bytes that turn the host screen showing `prev`
 * into `next` (docs/tui.md). Only changed cells are written; a size
 * change (or no previous frame) repaints everything; "" means nothing to
 * write. Pure.
 *
 * Invariants: the pen (SGR) and cursor position are unknown at the start
 * of every diff, so each diff is correct on its own; a wide character is
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
}

export const SYNC_BEGIN = "\x1b[?2026h";
export const SYNC_END = "\x1b[?2026l";
const HIDE_CURSOR = "\x1b[?25l";
const SHOW_CURSOR = "\x1b[?25h";

export function diff(prev: Frame | null, next: Frame, options: DiffOptions = {}): string {
  const full = prev === null || prev.cols !== next.cols || prev.rows !== next.rows;
  let body = full ? "\x1b[0m\x1b[H\x1b[2J" : "";
  let penFg = -2;
  let penBg = -2;
  let penAttrs = -1;
  let cx = -1;
  let cy = -1;
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
      if (cx !== x || cy !== y) body += `\x1b[${y + 1};${x + 1}H`;
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
      body += ch === "" || ch.charCodeAt(0) < 0x20 ? " " : ch;
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
    out = (body !== "" ? HIDE_CURSOR : "") + out + `\x1b[${c.y + 1};${c.x + 1}H` + SHOW_CURSOR;
  } else if (full || prev!.cursor !== null || body !== "") {
    out = HIDE_CURSOR + out;
  }
  return options.sync ? SYNC_BEGIN + out + SYNC_END : out;
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
