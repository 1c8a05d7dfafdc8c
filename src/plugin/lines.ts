/**
 * Byte-level line splitter with a size cap: finds 0x0A with indexOf, decodes
 * each line alone, and never buffers more than `maxBytes` of one line. A
 * line is reported oversize as soon as it passes the cap — not when its
 * newline comes, which from a peer flooding without one is never — and its
 * bytes are skipped up to the next newline.
 */

export type LineItem =
  | { readonly type: "line"; readonly text: string }
  /** `bytes`: how much of the line had arrived when it passed the cap. */
  | { readonly type: "oversize"; readonly bytes: number };

export class LineSplitter {
  #chunks: Uint8Array[] = [];
  #buffered = 0;
  /** The current line passed the cap (reported): its bytes are skipped up to its newline. */
  #dropping = false;
  #decoder = new TextDecoder();

  constructor(readonly maxBytes: number) {}

  /** Feeds bytes; returns the complete lines (and oversize reports) they close. */
  push(chunk: Uint8Array): LineItem[] {
    const out: LineItem[] = [];
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl < 0 ? chunk.length : nl;
      const over = this.#take(chunk.subarray(start, end));
      if (over !== null) out.push(over);
      if (nl < 0) break;
      if (this.#dropping) this.#dropping = false;
      else out.push(this.#finish());
      start = nl + 1;
    }
    return out;
  }

  /** End of input: a last line without `\n` still counts. */
  end(): LineItem[] {
    if (this.#buffered === 0 || this.#dropping) return [];
    return [this.#finish()];
  }

  /** Buffers part of the current line; the oversize report when it passes the cap. */
  #take(part: Uint8Array): LineItem | null {
    if (part.length === 0 || this.#dropping) return null;
    if (this.#buffered + part.length > this.maxBytes) {
      const bytes = this.#buffered + part.length;
      this.#dropping = true;
      this.#chunks = [];
      this.#buffered = 0;
      return { type: "oversize", bytes };
    }
    this.#chunks.push(part.slice());
    this.#buffered += part.length;
    return null;
  }

  #finish(): LineItem {
    const bytes = this.#chunks.length === 1
      ? this.#chunks[0]!
      : concat(this.#chunks, this.#buffered);
    this.#chunks = [];
    this.#buffered = 0;
    let text = this.#decoder.decode(bytes);
    if (text.endsWith("\r")) text = text.slice(0, -1);
    return { type: "line", text };
  }
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Reads a byte stream as capped lines until it ends. */
export async function* readLines(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
): AsyncGenerator<LineItem> {
  const splitter = new LineSplitter(maxBytes);
  const reader = stream.getReader();
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      yield* splitter.push(value);
    }
    yield* splitter.end();
  } finally {
    reader.releaseLock();
  }
}

/** The last `max` bytes of a stream (a failed plugin's stderr, P6), decoded without a cut character. */
export class TailBuffer {
  #bytes = new Uint8Array(0);

  constructor(readonly max: number) {}

  push(chunk: Uint8Array): void {
    const joined = new Uint8Array(this.#bytes.length + chunk.length);
    joined.set(this.#bytes);
    joined.set(chunk, this.#bytes.length);
    this.#bytes = joined.length > this.max ? joined.slice(joined.length - this.max) : joined;
  }

  clear(): void {
    this.#bytes = new Uint8Array(0);
  }

  text(): string {
    let start = 0;
    // A multi-byte character cut by the window: drop its continuation bytes.
    while (start < this.#bytes.length && (this.#bytes[start]! & 0xc0) === 0x80) start++;
    return new TextDecoder().decode(this.#bytes.subarray(start));
  }
}
