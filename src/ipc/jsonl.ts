/**
 * JSON Lines framing for the hook and control sockets (DESIGN §6): one
 * UTF-8 JSON value per `\n`-terminated line, with a byte limit per line so
 * a bad peer cannot make us buffer without bound.
 *
 * Runtime-neutral (streams and bytes only). Imports nothing, so the hook
 * client can use it without loading zod.
 */

/** Hook messages carry metadata only (H1). */
export const HOOK_LINE_LIMIT = 64 * 1024;
/** Control requests may carry text to type; replies may carry a screen. */
export const CONTROL_LINE_LIMIT = 1024 * 1024;

/** One framed item: a complete line, or a line that went over the limit (dropped whole). */
export type LineItem =
  | { readonly type: "line"; readonly line: string }
  | { readonly type: "overflow"; readonly limit: number };

const NEWLINE = 0x0a;

/**
 * Splits a byte stream into lines of at most `maxBytes` (newline excluded).
 * A longer line yields one `overflow` item as soon as it passes the limit;
 * its bytes up to the next newline are discarded. A last line without a
 * newline is yielded at end of stream.
 */
export async function* readLines(
  source: ByteSource,
  maxBytes: number,
): AsyncGenerator<LineItem> {
  const decoder = new TextDecoder();
  const next = chunksOf(source);
  let parts: Uint8Array[] = [];
  let pending = 0;
  let discarding = false;
  try {
    while (true) {
      const value = await next.read();
      if (value === null) break;
      let start = 0;
      while (start <= value.length) {
        const end = value.indexOf(NEWLINE, start);
        const stop = end === -1 ? value.length : end;
        if (!discarding) {
          const piece = value.subarray(start, stop);
          if (pending + piece.length > maxBytes) {
            discarding = true;
            parts = [];
            pending = 0;
            yield { type: "overflow", limit: maxBytes };
          } else if (piece.length > 0) {
            parts.push(piece.slice());
            pending += piece.length;
          }
        }
        if (end === -1) break;
        if (!discarding) yield { type: "line", line: decoder.decode(concat(parts, pending)) };
        discarding = false;
        parts = [];
        pending = 0;
        start = end + 1;
      }
    }
    if (!discarding && pending > 0) {
      yield { type: "line", line: decoder.decode(concat(parts, pending)) };
    }
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

function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const encoder = new TextEncoder();

/** One value as a framed line (JSON + `\n`). */
export function encodeLine(value: unknown): Uint8Array {
  return encoder.encode(`${JSON.stringify(value)}\n`);
}

/** Writes every byte (a socket may accept fewer per call). */
export async function writeAll(
  sink: { write(p: Uint8Array): Promise<number> },
  bytes: Uint8Array,
): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) offset += await sink.write(bytes.subarray(offset));
}
