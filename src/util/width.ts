/**
 * Display width of text: the one measure lazyshell uses everywhere — the
 * TUI frame, plugin view clipping — and the same as the session emulator's
 * cells (@xterm/addon-unicode11, Unicode 11: emoji such as 🚀 ✅ ⚡ and CJK
 * are 2 columns, combining marks and zero-width joiners 0). The table is
 * generated from the emulator (width_table.ts, tools/width_table.ts) and
 * tests/width_test.ts fails when the two disagree. Pure.
 */

import { DOUBLE_WIDTH, ZERO_WIDTH } from "./width_table.ts";

/** Parses the generated runs into a flat [start, end, …] array. */
function runs(table: string): Uint32Array {
  const words = table.trim().split(/\s+/);
  const out = new Uint32Array(words.length * 2);
  words.forEach((word, i) => {
    const [a, b] = word.split("-");
    out[2 * i] = parseInt(a!, 16);
    out[2 * i + 1] = parseInt(b ?? a!, 16);
  });
  return out;
}

const ZERO = runs(ZERO_WIDTH);
const WIDE = runs(DOUBLE_WIDTH);

function inRuns(cp: number, table: Uint32Array): boolean {
  let lo = 0;
  let hi = table.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < table[2 * mid]!) hi = mid - 1;
    else if (cp > table[2 * mid + 1]!) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Columns one code point takes: 0, 1 or 2 (control characters count 0). */
export function charWidth(cp: number): 0 | 1 | 2 {
  if (cp >= 0x20 && cp < 0x7f) return 1;
  if (inRuns(cp, ZERO)) return 0;
  return inRuns(cp, WIDE) ? 2 : 1;
}

/** Columns a string takes. */
export function stringWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += charWidth(ch.codePointAt(0)!);
  return w;
}

/** The longest prefix of `text` that fits in `width` columns, with an ellipsis when cut. */
export function truncate(text: string, width: number, ellipsis = "…"): string {
  if (width <= 0) return "";
  if (stringWidth(text) <= width) return text;
  let out = "";
  let w = 0;
  const limit = width - stringWidth(ellipsis);
  for (const ch of text) {
    const cw = charWidth(ch.codePointAt(0)!);
    if (w + cw > limit) break;
    out += ch;
    w += cw;
  }
  return limit >= 0 ? out + ellipsis : out;
}
