/**
 * The last lines of a terminal's history (`ctl read --tail N`), read from
 * the end backwards so that a read costs what it returns: the rows of the
 * lines it gives back, plus the blank rows below them — never the whole
 * scrollback (tools/abuse item 02: 100 concurrent `--tail 5000` reads took 2 GB when
 * every read walked all of it). The reply is bounded too: at most
 * `maxBytes` of JSON-encoded text; older lines are dropped first and a line
 * longer than the whole budget keeps its end (what was printed last).
 *
 * Must not import tui/. Reads xterm only through its public buffer API.
 */

/** What tail() needs of an xterm buffer (`term.buffer.normal`). */
export interface TailBuffer {
  readonly length: number;
  getLine(
    y: number,
  ): { readonly isWrapped: boolean; translateToString(trim: boolean): string } | undefined;
}

export interface Tail {
  /** Oldest first; soft-wrapped rows joined; trailing blank lines dropped. */
  readonly lines: string[];
  /** True when lines (or the start of the oldest one) were left out to stay within the budget. */
  readonly truncated: boolean;
}

/** Default budget: the ctl client reads replies of up to 1 MiB (src/ipc/jsonl.ts). */
export const TAIL_MAX_BYTES = 512 * 1024;

export function readTail(buffer: TailBuffer, count: number, maxBytes = TAIL_MAX_BYTES): Tail {
  const lines: string[] = [];
  let budget = maxBytes;
  let y = buffer.length - 1;
  while (y >= 0 && lines.length < count) {
    // One logical line: rows y, y-1, … up to the row that is not a continuation.
    const rows: string[] = [];
    let cost = 3; // its quotes and the comma
    let cut = false;
    for (;;) {
      const line = buffer.getLine(y);
      const text = line?.translateToString(true) ?? "";
      const size = jsonBytes(text);
      if (cost + size > budget) {
        rows.push(keepEnd(text, budget - cost));
        cut = true;
        break;
      }
      rows.push(text);
      cost += size;
      y--;
      if (!line?.isWrapped || y < 0) break;
    }
    if (cut) {
      // Only the newest line is ever cut; an older one that does not fit is left out.
      if (lines.length === 0) lines.push(rows.reverse().join(""));
      return { lines: lines.reverse(), truncated: true };
    }
    const text = rows.reverse().join("");
    if (lines.length === 0 && text === "") continue; // a trailing blank line
    lines.push(text);
    budget -= cost;
  }
  return { lines: lines.reverse(), truncated: false };
}

/** The longest end of `text` whose JSON encoding fits in `bytes`. */
function keepEnd(text: string, bytes: number): string {
  let start = text.length;
  let used = 0;
  while (start > 0) {
    const size = jsonBytes(text[start - 1]!);
    if (used + size > bytes) break;
    used += size;
    start--;
  }
  // Never split a surrogate pair.
  if (start < text.length && /[\udc00-\udfff]/.test(text[start]!)) start++;
  return text.slice(start);
}

/** Bytes of `text` inside a JSON string, UTF-8 encoded. */
export function jsonBytes(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 || c === 0x5c) n += 2;
    else if (c < 0x20) n += c >= 8 && c <= 13 && c !== 11 ? 2 : 6;
    else if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
