/**
 * One row of a terminal as compact bytes (the scrollback store's unit,
 * scrollback.ts), and back. A row of xterm's buffer keeps three 32-bit
 * words a cell — content (code point, width, combined flag), foreground
 * and background with the attribute flags — 12 bytes a cell, about 3 KB a
 * 200-column line once its objects are counted (bench/memory.ts). Here
 * each cell of printable ASCII is one byte, other characters a marker and
 * a varint, and the colours are runs: a 200-column coloured log line is
 * about 250 bytes.
 *
 * Exact: decoding gives back every word of every cell up to the last one
 * that differs from an empty cell (the rest are empty), so what a reader
 * draws or reads from a stored row is what it would read from xterm. One
 * thing is folded: xterm's extended attributes (underline style and
 * colour, hyperlink ids) are dropped, and an underline style other than
 * none becomes the plain underline flag, which is all a reader sees of it
 * (CellData.isUnderline()).
 *
 * Layout: varint(used << 2 | hasRuns << 1 | wrapped), then `used` cells,
 * then, when hasRuns, varint(runs) and per run varint(start), varint(fg),
 * varint(bg) (a cell takes the last run starting at or before it; cells
 * before the first run, and every cell of a row without runs, have fg = bg = 0).
 *
 * Cells: 0x20–0x7E printable ASCII of width 1; 0x00 the empty cell;
 * 0x02 a cell of width 0 with no content (the right half of a wide
 * character); 0x03 varint(cp): a character of width 1; 0x04 varint(cp): of
 * width 2; 0x01 varint(content) [varint(n), n × varint(UTF-16 unit) when
 * combined]: any other content word. Pure: no xterm import.
 */

/** The content word of an empty cell: code point 0, width 1. */
export const EMPTY = 0x400000;
export const CODEPOINT_MASK = 0x1fffff;
export const COMBINED = 0x200000;
export const WIDTH_SHIFT = 22;
/** bg flag: the cell has extended attributes (xterm's BgFlags.HAS_EXTENDED). */
const HAS_EXTENDED = 0x10000000;
/** fg flag: underline (FgFlags.UNDERLINE). */
const UNDERLINE = 0x10000000;

/** What encodeRow reads of a row: xterm's BufferLine has these fields. */
export interface RowSource {
  readonly length: number;
  readonly isWrapped: boolean;
  readonly _data: Uint32Array;
  readonly _combined: Readonly<Record<number, string>>;
  readonly _extendedAttrs: Readonly<
    Record<number, { readonly underlineStyle: number } | undefined>
  >;
}

/** A growable byte buffer rows are encoded into. */
export class ByteWriter {
  bytes: Uint8Array;
  length = 0;

  constructor(capacity = 4096) {
    this.bytes = new Uint8Array(capacity);
  }

  /** Makes room for `n` more bytes. */
  reserve(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.length + n) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  varint(value: number): void {
    this.reserve(5);
    let v = value >>> 0;
    const b = this.bytes;
    while (v >= 0x80) {
      b[this.length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    b[this.length++] = v;
  }
}

/** Cells up to the last one that is not an empty default cell. */
export function usedCells(data: Uint32Array, length: number): number {
  let used = length;
  while (used > 0) {
    const j = (used - 1) * 3;
    if (data[j] !== EMPTY || data[j + 1] !== 0 || data[j + 2] !== 0) break;
    used--;
  }
  return used;
}

/** Appends one row's record to `out` (its first `limit` cells at most). */
export function encodeRow(line: RowSource, out: ByteWriter, limit = line.length): void {
  const d = line._data;
  const used = usedCells(d, Math.min(line.length, limit));
  // Runs: one wherever fg or bg (as a reader sees them) changes, starting from 0/0.
  let runs = 0;
  let prevFg = 0;
  let prevBg = 0;
  for (let j = 1, end = used * 3; j < end; j += 3) {
    const rawFg = d[j]!;
    const rawBg = d[j + 1]!;
    if ((rawFg | rawBg) === 0 && prevFg === 0 && prevBg === 0) continue; // uncoloured text
    const fg = readerFg(line, (j - 1) / 3, rawFg, rawBg);
    const bg = (rawBg & ~HAS_EXTENDED) >>> 0;
    if (fg === prevFg && bg === prevBg) continue;
    runs++;
    prevFg = fg;
    prevBg = bg;
  }
  out.varint(used * 4 + (runs > 0 ? 2 : 0) + (line.isWrapped ? 1 : 0));
  // The cells: a byte each for the common ones, written through locals (this runs for every
  // row that scrolls off; bench/memory.ts), the rest through the writer.
  out.reserve(used);
  let bytes = out.bytes;
  let n = out.length;
  for (let i = 0, j = 0; i < used; i++, j += 3) {
    const c = d[j]!;
    const ascii = c - 0x400020;
    if (ascii >= 0 && ascii < 0x5f) {
      bytes[n++] = c & 0x7f;
      continue;
    }
    if (c === EMPTY || c === 0) {
      bytes[n++] = c === 0 ? 2 : 0;
      continue;
    }
    out.length = n;
    out.reserve(6 + (used - i));
    const width = c >>> WIDTH_SHIFT;
    if ((c & COMBINED) === 0 && (width === 1 || width === 2)) {
      out.bytes[out.length++] = width === 1 ? 3 : 4;
      out.varint(c & CODEPOINT_MASK);
    } else {
      out.bytes[out.length++] = 1;
      out.varint(c);
      if (c & COMBINED) {
        const text = line._combined[i] ?? "";
        out.varint(text.length);
        for (let k = 0; k < text.length; k++) out.varint(text.charCodeAt(k));
        out.reserve(used - i);
      }
    }
    bytes = out.bytes;
    n = out.length;
  }
  out.length = n;
  if (runs === 0) return;
  out.varint(runs);
  prevFg = prevBg = 0;
  for (let i = 0, j = 0; i < used; i++, j += 3) {
    const fg = readerFg(line, i, d[j + 1]!, d[j + 2]!);
    const bg = (d[j + 2]! & ~HAS_EXTENDED) >>> 0;
    if (fg === prevFg && bg === prevBg) continue;
    out.varint(i);
    out.varint(fg);
    out.varint(bg);
    prevFg = fg;
    prevBg = bg;
  }
}

/** fg as readers see it: an extended underline style folded into the underline flag. */
export function readerFg(line: RowSource, i: number, fg: number, bg: number): number {
  if ((bg & HAS_EXTENDED) === 0) return fg >>> 0;
  const style = line._extendedAttrs[i]?.underlineStyle ?? 0;
  return (style !== 0 ? fg | UNDERLINE : fg) >>> 0;
}

/** One decoded row: every cell's three words up to `used`, combined strings by cell. */
export class DecodedRow {
  used = 0;
  wrapped = false;
  content = new Uint32Array(256);
  fg = new Uint32Array(256);
  bg = new Uint32Array(256);
  combined = new Map<number, string>();

  /** Room for `n` cells. */
  reserve(n: number): void {
    if (n <= this.content.length) return;
    let size = this.content.length * 2;
    while (size < n) size *= 2;
    this.content = new Uint32Array(size);
    this.fg = new Uint32Array(size);
    this.bg = new Uint32Array(size);
  }

  /** The characters of cell `i` as xterm's getChars() gives them ("" for an empty cell). */
  chars(i: number): string {
    const c = this.content[i]!;
    if (c & COMBINED) return this.combined.get(i) ?? "";
    return codepointText(c & CODEPOINT_MASK);
  }

  /**
   * The row as xterm's translateToString gives it at `cols` columns:
   * empty cells as spaces, the right half of a wide character skipped;
   * `trimRight`: up to the last cell with content.
   */
  text(cols: number, trimRight: boolean): string {
    const end = trimRight ? Math.min(cols, this.trimmedLength()) : cols;
    if (TEXT.length < end * 2) TEXT = new Uint16Array(end * 2);
    const units = TEXT;
    let n = 0;
    let out = "";
    for (let x = 0; x < end;) {
      const c = x < this.used ? this.content[x]! : EMPTY;
      const cp = c & CODEPOINT_MASK;
      if (c & COMBINED) {
        out += fromUnits(units, n);
        n = 0;
        out += this.combined.get(x) ?? "";
      } else if (cp < 0x10000) {
        units[n++] = cp === 0 ? 0x20 : cp;
      } else {
        units[n++] = 0xd800 + ((cp - 0x10000) >> 10);
        units[n++] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
      }
      x += (c >>> WIDTH_SHIFT) || 1;
    }
    return out + fromUnits(units, n);
  }

  /** Cells up to the last one with content (xterm's getTrimmedLength()). */
  trimmedLength(): number {
    for (let i = this.used - 1; i >= 0; i--) {
      const c = this.content[i]!;
      if (c & 0x3fffff) return i + (c >>> WIDTH_SHIFT);
    }
    return 0;
  }
}

/** A string of UTF-16 units, lone surrogates kept (a TextDecoder would replace them). */
function fromUnits(units: Uint16Array, n: number): string {
  let out = "";
  for (let i = 0; i < n; i += 8192) {
    const part = units.subarray(i, Math.min(n, i + 8192));
    out += String.fromCharCode.apply(null, part as unknown as number[]);
  }
  return out;
}

/** Scratch for text(): the UTF-16 units of one row. */
let TEXT = new Uint16Array(512);

const ASCII = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i));

/** A cell's code point as getChars() gives it ("" for 0), ASCII without a new string. */
export function codepointText(cp: number): string {
  return cp === 0 ? "" : cp < 0x80 ? ASCII[cp]! : String.fromCodePoint(cp);
}

let pos = 0;

function varint(bytes: Uint8Array): number {
  let v = 0;
  let scale = 1;
  for (;;) {
    const b = bytes[pos++]!;
    v += (b & 0x7f) * scale;
    if (b < 0x80) return v;
    scale *= 128;
  }
}

/** Reads the record at `at` into `row`; returns where the next record starts. */
export function decodeRow(bytes: Uint8Array, at: number, row: DecodedRow): number {
  pos = at;
  const header = varint(bytes);
  const used = Math.floor(header / 4);
  row.used = used;
  row.wrapped = (header & 1) === 1;
  row.reserve(used);
  row.combined.clear();
  const content = row.content;
  let p = pos;
  for (let i = 0; i < used; i++) {
    const b = bytes[p++]!;
    if (b >= 0x20) {
      content[i] = 0x400000 | b;
      continue;
    }
    if (b === 0) {
      content[i] = EMPTY;
      continue;
    }
    if (b === 2) {
      content[i] = 0;
      continue;
    }
    pos = p;
    if (b === 3) content[i] = 0x400000 | varint(bytes);
    else if (b === 4) content[i] = 0x800000 | varint(bytes);
    else {
      const c = varint(bytes);
      content[i] = c;
      if (c & COMBINED) {
        const n = varint(bytes);
        const units: number[] = [];
        for (let k = 0; k < n; k++) units.push(varint(bytes));
        row.combined.set(i, String.fromCharCode(...units));
      }
    }
    p = pos;
  }
  pos = p;
  const fg = row.fg;
  const bg = row.bg;
  if ((header & 2) === 0) {
    fg.fill(0, 0, used);
    bg.fill(0, 0, used);
    return pos;
  }
  const runs = varint(bytes);
  let start = varint(bytes);
  fg.fill(0, 0, start);
  bg.fill(0, 0, start);
  for (let r = 0; r < runs; r++) {
    const f = varint(bytes);
    const g = varint(bytes);
    const next = r + 1 < runs ? varint(bytes) : used;
    fg.fill(f, start, next);
    bg.fill(g, start, next);
    start = next;
  }
  return pos;
}

const LATIN1 = new TextDecoder("latin1");
let ASCII_ROW = new Uint8Array(512);

/**
 * The text of the record at `at` as DecodedRow.text(cols, true) gives it,
 * straight from its bytes when the row is printable ASCII and empty cells
 * (most rows): no decoding of cells or colours. Otherwise through `row`.
 */
export function rowText(bytes: Uint8Array, at: number, cols: number, row: DecodedRow): string {
  pos = at;
  const used = Math.floor(varint(bytes) / 4);
  const from = pos;
  let end = 0;
  for (let i = 0; i < used; i++) {
    const b = bytes[from + i]!;
    if (b >= 0x20) end = i + 1;
    else if (b !== 0) {
      decodeRow(bytes, at, row);
      return row.text(cols, true);
    }
  }
  end = Math.min(end, cols);
  if (ASCII_ROW.length < end) ASCII_ROW = new Uint8Array(end * 2);
  const out = ASCII_ROW;
  for (let i = 0; i < end; i++) {
    const b = bytes[from + i]!;
    out[i] = b === 0 ? 0x20 : b;
  }
  return LATIN1.decode(out.subarray(0, end));
}

const SCRATCH = new ByteWriter(1024);
const SCRATCH_ROW = new DecodedRow();

/** A row's text as xterm's translateToString(trimRight) gives it, through the codec. */
export function lineText(line: RowSource, cols: number, trimRight: boolean): string {
  SCRATCH.length = 0;
  encodeRow(line, SCRATCH);
  if (trimRight) return rowText(SCRATCH.bytes, 0, cols, SCRATCH_ROW);
  decodeRow(SCRATCH.bytes, 0, SCRATCH_ROW);
  return SCRATCH_ROW.text(cols, false);
}

/** Whether the record at `at` continues the row before it (a soft wrap), without decoding it. */
export function rowWrapped(bytes: Uint8Array, at: number): boolean {
  return (bytes[at]! & 1) === 1;
}
