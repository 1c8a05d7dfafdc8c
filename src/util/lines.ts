/**
 * Byte-level line splitter with a size cap, the one every JSON Lines wire
 * uses (plugin stdio, the hook and control sockets): it finds 0x0A with
 * indexOf (~294 MB/s measured, docs/architecture.md), decodes each line
 * alone (a multi-byte character split across chunks stays whole), drops a
 * trailing `\r`, and never buffers more than `maxBytes` of one line. A line
 * is reported oversize as soon as it passes the cap — not when its newline
 * comes, which from a peer flooding without one is never — and its bytes
 * are skipped up to the next newline. Imports nothing (the hook client
 * loads it and must start fast).
 */

export type LineItem =
  | { readonly type: "line"; readonly text: string }
  /** `bytes`: how much of the line had arrived when it passed the cap. */
  | { readonly type: "oversize"; readonly bytes: number };

/** Where the next `\n` is from `start`, or -1 (for a reader that must keep the bytes after it). */
export function newlineAt(bytes: Uint8Array, start: number): number {
  return bytes.indexOf(0x0a, start);
}

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
      const nl = newlineAt(chunk, start);
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

/** Reads capped lines from a stream or a connection until it ends. */
export async function* readLines(source: ByteSource, maxBytes: number): AsyncGenerator<LineItem> {
  const splitter = new LineSplitter(maxBytes);
  const next = chunksOf(source);
  try {
    while (true) {
      const value = await next.read();
      if (value === null) break;
      yield* splitter.push(value);
    }
    yield* splitter.end();
  } finally {
    next.release();
  }
}

/**
 * Where bytes come from: a stream, or a Deno connection read directly. The
 * latter matters for sockets: reading `conn.readable` to its end closes the
 * connection, so a half-closed peer could not get its reply.
 */
export type ByteSource =
  | ReadableStream<Uint8Array>
  | { read(p: Uint8Array): Promise<number | null> };

function chunksOf(source: ByteSource): {
  read(): Promise<Uint8Array | null>;
  release(): void;
} {
  if ("getReader" in source) {
    const reader = source.getReader();
    return {
      read: async () => {
        const { value, done } = await reader.read();
        return done ? null : value;
      },
      release: () => reader.releaseLock(),
    };
  }
  const buffer = new Uint8Array(64 * 1024);
  return {
    read: async () => {
      const n = await source.read(buffer);
      return n === null ? null : buffer.subarray(0, n);
    },
    release: () => {},
  };
}
