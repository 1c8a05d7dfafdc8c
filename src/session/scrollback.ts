/**
 * The compact scrollback store: the rows that left the emulator's own
 * (small) buffer, oldest first, each as a compact record (row_codec.ts).
 * Records sit in blocks of BLOCK_ROWS rows — one byte array and one offset
 * table each — so that a row is found in O(1), the oldest rows are dropped
 * a block at a time, and a session's history costs about what its text
 * does. history.ts decides what goes in and reads it back. Pure: no xterm
 * import.
 */

import {
  ByteWriter,
  DecodedRow,
  decodeRow,
  encodeRow,
  type RowSource,
  rowText,
  rowWrapped,
} from "./row_codec.ts";

/** Rows per block: small enough that a dropped block frees its memory soon, big enough to be few. */
export const BLOCK_ROWS = 128;

interface Block {
  readonly bytes: Uint8Array;
  /** Where each row's record starts; `offsets[rows]` is the end. */
  readonly offsets: Uint32Array;
}

export class ScrollbackStore {
  /** Sealed blocks, each of exactly BLOCK_ROWS rows. */
  #blocks: Block[] = [];
  /** The block being filled. */
  #open = new ByteWriter(4096);
  #openOffsets: Uint32Array = new Uint32Array(BLOCK_ROWS + 1);
  #openRows = 0;
  /** Rows of the first block (sealed, or the open one) already dropped. */
  #first = 0;
  readonly #row = new DecodedRow();

  /** Rows held. */
  get length(): number {
    return this.#blocks.length * BLOCK_ROWS + this.#openRows - this.#first;
  }

  /** Bytes the records take (sealed blocks and the open one's used part), for figures and tests. */
  get bytes(): number {
    let n = this.#open.length;
    for (const b of this.#blocks) n += b.bytes.length + b.offsets.byteLength;
    return n;
  }

  /** Appends a row (its first `limit` cells at most) as the newest. */
  append(line: RowSource, limit?: number): void {
    encodeRow(line, this.#open, limit);
    this.#endRow();
  }

  /** Appends row `i` of `from` unchanged (a reflow keeps most rows as they are). */
  appendFrom(from: ScrollbackStore, i: number): void {
    const [bytes, start, end] = from.#locate(i);
    this.#open.reserve(end - start);
    this.#open.bytes.set(bytes.subarray(start, end), this.#open.length);
    this.#open.length += end - start;
    this.#endRow();
  }

  /** Drops the `n` oldest rows. */
  dropOldest(n: number): void {
    if (n <= 0) return;
    if (n >= this.length) return this.clear();
    this.#first += n;
    while (this.#blocks.length > 0 && this.#first >= BLOCK_ROWS) {
      this.#blocks.shift();
      this.#first -= BLOCK_ROWS;
    }
  }

  /** Drops the `n` newest rows. */
  dropNewest(n: number): void {
    if (n <= 0) return;
    if (n >= this.length) return this.clear();
    let left = n;
    while (left > 0) {
      if (this.#openRows === 0) this.#unseal();
      const take = Math.min(left, this.#openRows - (this.#blocks.length === 0 ? this.#first : 0));
      this.#openRows -= take;
      this.#open.length = this.#openOffsets[this.#openRows]!;
      left -= take;
    }
  }

  clear(): void {
    this.#blocks = [];
    this.#open = new ByteWriter(4096);
    this.#openRows = 0;
    this.#first = 0;
  }

  /** Takes over another store's rows (a reflow builds a new store, then swaps it in). */
  replaceWith(other: ScrollbackStore): void {
    this.#blocks = other.#blocks;
    this.#open = other.#open;
    this.#openOffsets = other.#openOffsets;
    this.#openRows = other.#openRows;
    this.#first = other.#first;
    other.#blocks = [];
    other.#open = new ByteWriter(16);
    other.#openOffsets = new Uint32Array(BLOCK_ROWS + 1);
    other.#openRows = other.#first = 0;
  }

  /** Row `i` (0: the oldest) decoded into `row` (default: a row this store reuses). */
  decode(i: number, row: DecodedRow = this.#row): DecodedRow {
    const [bytes, start] = this.#locate(i);
    decodeRow(bytes, start, row);
    return row;
  }

  /** Whether row `i` continues the row above it (a soft wrap). */
  wrapped(i: number): boolean {
    const [bytes, start] = this.#locate(i);
    return rowWrapped(bytes, start);
  }

  /** Row `i` no longer continues the row above it (xterm's ED 1 clears a wrap flag: xterm_internals.ts). */
  unwrap(i: number): void {
    const [bytes, start] = this.#locate(i);
    bytes[start] = bytes[start]! & ~1;
  }

  /** Row `i` as xterm's translateToString(trimRight) gives it at `cols` columns. */
  text(i: number, cols: number, trimRight = true): string {
    if (!trimRight) return this.decode(i).text(cols, false);
    const [bytes, start] = this.#locate(i);
    return rowText(bytes, start, cols, this.#row);
  }

  #endRow(): void {
    this.#openOffsets[++this.#openRows] = this.#open.length;
    if (this.#openRows < BLOCK_ROWS) return;
    this.#blocks.push({
      bytes: this.#open.bytes.slice(0, this.#open.length),
      offsets: this.#openOffsets,
    });
    this.#open.length = 0;
    this.#openOffsets = new Uint32Array(BLOCK_ROWS + 1);
    this.#openRows = 0;
  }

  /** Makes the last sealed block the open one again (to drop its newest rows). */
  #unseal(): void {
    const last = this.#blocks.pop()!;
    this.#open = new ByteWriter(Math.max(4096, last.bytes.length));
    this.#open.bytes.set(last.bytes);
    this.#open.length = last.bytes.length;
    this.#openOffsets = last.offsets;
    this.#openRows = BLOCK_ROWS;
  }

  /** [bytes, start, end] of row `i`'s record. */
  #locate(i: number): [Uint8Array, number, number] {
    if (i < 0 || i >= this.length) throw new RangeError(`No scrollback row ${i}`);
    const g = this.#first + i;
    const b = Math.floor(g / BLOCK_ROWS);
    const r = g - b * BLOCK_ROWS;
    if (b < this.#blocks.length) {
      const block = this.#blocks[b]!;
      return [block.bytes, block.offsets[r]!, block.offsets[r + 1]!];
    }
    return [this.#open.bytes, this.#openOffsets[r]!, this.#openOffsets[r + 1]!];
  }
}
