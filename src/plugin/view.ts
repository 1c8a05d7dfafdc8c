/**
 * A plugin frame's `view` → lines safe to draw in a tab (docs/plugin-protocol.md). Pure.
 *
 * Kept: text, `\n`, SGR (`ESC [ … m`). Removed: every other escape sequence
 * (CSI cursor moves and clears, OSC titles and hyperlinks, DCS/APC/PM/SOS
 * strings, two-byte ESC sequences) and C0/C1 controls; tabs become spaces.
 * Each line is clipped to `width` columns and the view to `height` lines.
 * After each reset (`ESC[0m`, `ESC[m`, or an SGR whose parameters include a
 * bare 0) the tab's own background SGR is written again, so a plugin's reset
 * never punches a hole of terminal-default colour into the tab.
 */

import { charWidth } from "../util/width.ts";

export interface ViewOptions {
  readonly width: number;
  readonly height: number;
  /** SGR that paints the tab background, e.g. "\x1b[48;2;30;30;46m"; "" for none. */
  readonly background?: string;
}

const ESC = "\x1b";

/** True when an SGR parameter string resets all attributes. */
function resets(params: string): boolean {
  if (params === "") return true;
  // Only top-level parameters count: `38;5;0` sets black, it does not reset.
  const parts = params.split(";");
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!.split(":")[0];
    if (p === "38" || p === "48" || p === "58") {
      const mode = parts[i + 1];
      i += mode === "5" ? 2 : mode === "2" ? 4 : 0;
      continue;
    }
    if (p === "" || Number(p) === 0) return true;
  }
  return false;
}

/**
 * Skips the escape sequence starting at `i` (text[i] === ESC); returns the
 * index after it and the SGR parameters when it is an SGR, else null.
 */
function scanEscape(text: string, i: number): { end: number; sgr: string | null } {
  const next = text[i + 1];
  if (next === "[") {
    let j = i + 2;
    while (j < text.length && /[0-?]/.test(text[j]!)) j++; // parameter bytes
    const paramsEnd = j;
    while (j < text.length && /[ -/]/.test(text[j]!)) j++; // intermediate bytes
    const final = text[j];
    if (final === undefined) return { end: text.length, sgr: null };
    const params = text.slice(i + 2, paramsEnd);
    const isSgr = final === "m" && paramsEnd === j && /^[0-9;:]*$/.test(params);
    return { end: j + 1, sgr: isSgr ? params : null };
  }
  if (next === "]" || next === "P" || next === "X" || next === "^" || next === "_") {
    // String sequences end at BEL or ST (ESC \).
    for (let j = i + 2; j < text.length; j++) {
      if (text[j] === "\x07") return { end: j + 1, sgr: null };
      if (text[j] === ESC && text[j + 1] === "\\") return { end: j + 2, sgr: null };
    }
    return { end: text.length, sgr: null };
  }
  if (next === undefined) return { end: text.length, sgr: null };
  // ESC + intermediates + final (e.g. ESC ( B, ESC 7, ESC c).
  let j = i + 1;
  while (j < text.length && /[ -/]/.test(text[j]!)) j++;
  return { end: Math.min(j + 1, text.length), sgr: null };
}

/** One line (no `\n`) → sanitised and clipped text. */
function sanitizeLine(line: string, width: number, background: string): string {
  let out = "";
  let cols = 0;
  let styled = false;
  let clipped = false;
  let i = 0;
  while (i < line.length) {
    const ch = line[i]!;
    if (ch === ESC) {
      const { end, sgr } = scanEscape(line, i);
      if (sgr !== null) {
        out += `${ESC}[${sgr}m`;
        styled = true;
        if (background !== "" && resets(sgr)) out += background;
      }
      i = end;
      continue;
    }
    const cp = line.codePointAt(i)!;
    const len = cp > 0xffff ? 2 : 1;
    i += len;
    if (cp === 0x09) {
      const spaces = Math.min(8 - (cols % 8), width - cols);
      if (spaces > 0) {
        out += " ".repeat(spaces);
        cols += spaces;
      }
      continue;
    }
    if (cp < 0x20 || cp === 0x7f || (cp >= 0x80 && cp < 0xa0)) continue;
    const w = charWidth(cp);
    if (clipped || cols + w > width) {
      // Clipped (a wide character that does not fit ends the line too, as in
      // the frame): keep scanning for SGR only so the style state stays right.
      clipped = true;
      continue;
    }
    out += String.fromCodePoint(cp);
    cols += w;
  }
  if (styled) out += `${ESC}[0m${background}`;
  return out;
}

/** A plugin's view → at most `height` lines, each at most `width` columns. */
export function sanitizeView(view: string, options: ViewOptions): string[] {
  const width = Math.max(0, options.width);
  const height = Math.max(0, options.height);
  const background = options.background ?? "";
  const lines = view.replace(/\r\n/g, "\n").split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines.slice(0, height).map((line) => sanitizeLine(line, width, background));
}

/** Visible columns of a sanitised line (SGR excluded). */
export function visibleWidth(line: string): number {
  let cols = 0;
  let i = 0;
  while (i < line.length) {
    if (line[i] === ESC) {
      i = scanEscape(line, i).end;
      continue;
    }
    const cp = line.codePointAt(i)!;
    i += cp > 0xffff ? 2 : 1;
    cols += charWidth(cp);
  }
  return cols;
}

// ---------------------------------------------------------------- styled spans

/**
 * A sanitised line as styled spans, in the TUI frame model's encoding
 * (src/tui/core/frame.ts; plugin/ may not import tui/, so the encoding is
 * repeated here and src/tui/plugin_tabs_test.ts checks both agree):
 * colours -1 default, 0–255 palette, RGB_FLAG | 0xRRGGBB; attrs a bit set.
 */
export interface ViewStyle {
  readonly fg?: number;
  readonly bg?: number;
  readonly attrs?: number;
}
export interface ViewSpan {
  readonly text: string;
  readonly style?: ViewStyle;
}

export const VIEW_RGB_FLAG = 0x1000000;
export const VIEW_ATTRS = {
  bold: 1,
  dim: 2,
  italic: 4,
  underline: 8,
  blink: 16,
  inverse: 32,
  invisible: 64,
  strike: 128,
} as const;

const SGR_ON: Record<number, number> = {
  1: VIEW_ATTRS.bold,
  2: VIEW_ATTRS.dim,
  3: VIEW_ATTRS.italic,
  4: VIEW_ATTRS.underline,
  5: VIEW_ATTRS.blink,
  7: VIEW_ATTRS.inverse,
  8: VIEW_ATTRS.invisible,
  9: VIEW_ATTRS.strike,
};
const SGR_OFF: Record<number, number> = {
  22: VIEW_ATTRS.bold | VIEW_ATTRS.dim,
  23: VIEW_ATTRS.italic,
  24: VIEW_ATTRS.underline,
  25: VIEW_ATTRS.blink,
  27: VIEW_ATTRS.inverse,
  28: VIEW_ATTRS.invisible,
  29: VIEW_ATTRS.strike,
};

interface Pen {
  fg: number;
  bg: number;
  attrs: number;
}

/** Applies one SGR parameter list to the pen. */
function applySgr(pen: Pen, params: string): void {
  const parts = params === "" ? [0] : params.split(/[;:]/).map((p) => (p === "" ? 0 : Number(p)));
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p === 0) Object.assign(pen, { fg: -1, bg: -1, attrs: 0 });
    else if (SGR_ON[p] !== undefined) pen.attrs |= SGR_ON[p]!;
    else if (SGR_OFF[p] !== undefined) pen.attrs &= ~SGR_OFF[p]!;
    else if (p >= 30 && p <= 37) pen.fg = p - 30;
    else if (p >= 90 && p <= 97) pen.fg = p - 90 + 8;
    else if (p >= 40 && p <= 47) pen.bg = p - 40;
    else if (p >= 100 && p <= 107) pen.bg = p - 100 + 8;
    else if (p === 39) pen.fg = -1;
    else if (p === 49) pen.bg = -1;
    else if (p === 38 || p === 48 || p === 58) {
      let color: number | null = null;
      if (parts[i + 1] === 5) {
        color = (parts[i + 2] ?? 0) & 0xff;
        i += 2;
      } else if (parts[i + 1] === 2) {
        const [r, g, b] = [parts[i + 2] ?? 0, parts[i + 3] ?? 0, parts[i + 4] ?? 0];
        color = VIEW_RGB_FLAG | ((r & 0xff) << 16) | ((g & 0xff) << 8) | (b & 0xff);
        i += 4;
      }
      if (color !== null && p === 38) pen.fg = color;
      if (color !== null && p === 48) pen.bg = color;
    }
  }
}

/** A line from sanitizeView() → spans; text without any escape. */
export function toSpans(line: string): ViewSpan[] {
  const spans: ViewSpan[] = [];
  const pen: Pen = { fg: -1, bg: -1, attrs: 0 };
  let text = "";
  const flush = () => {
    if (text === "") return;
    const style: { fg?: number; bg?: number; attrs?: number } = {};
    if (pen.fg !== -1) style.fg = pen.fg;
    if (pen.bg !== -1) style.bg = pen.bg;
    if (pen.attrs !== 0) style.attrs = pen.attrs;
    spans.push(Object.keys(style).length === 0 ? { text } : { text, style });
    text = "";
  };
  let i = 0;
  while (i < line.length) {
    if (line[i] === ESC) {
      const { end, sgr } = scanEscape(line, i);
      if (sgr !== null) {
        flush();
        applySgr(pen, sgr);
      }
      i = end;
      continue;
    }
    text += line[i];
    i++;
  }
  flush();
  return spans;
}
