/**
 * One connection to the lasting server: frames in (a client's hello, keys,
 * sizes) and frames out (what to draw, why it ended), in order. Writes go
 * through one queue with a byte bound: a client that stops reading is cut
 * off, never buffered without end (the server must not die of a client).
 */

import { frame, FrameError, FrameReader, type FrameType } from "./protocol.ts";
import type { Frame } from "./protocol.ts";

/** Output queued for a client that does not read, before it is disconnected. */
export const MAX_QUEUED_BYTES = 16 * 1024 * 1024;

export class Link implements Disposable {
  readonly #conn: Deno.Conn;
  #queue: Uint8Array[] = [];
  #queued = 0;
  #writing: Promise<void> | null = null;
  #closed = false;
  #closedSignal = Promise.withResolvers<void>();

  constructor(conn: Deno.Conn) {
    this.#conn = conn;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Resolves once the connection is closed (by either side). */
  get whenClosed(): Promise<void> {
    return this.#closedSignal.promise;
  }

  /** Frames as they arrive; ends at EOF, on a read error or on a bad frame (then closes). */
  async *frames(): AsyncGenerator<Frame> {
    const reader = new FrameReader();
    const buf = new Uint8Array(64 * 1024);
    try {
      for (;;) {
        const n = await this.#conn.read(buf);
        if (n === null) return;
        for (const f of reader.push(buf.subarray(0, n))) yield f;
      }
    } catch (error) {
      if (!(error instanceof FrameError) && !isClosedError(error)) throw error;
    } finally {
      this.close();
    }
  }

  /** Queues one frame; false when the link is closed or was just cut off for not reading. */
  send(type: FrameType, payload: Uint8Array | string | object): boolean {
    if (this.#closed) return false;
    const data = frame(type, payload);
    if (this.#queued + data.length > MAX_QUEUED_BYTES) {
      this.close();
      return false;
    }
    this.#queue.push(data);
    this.#queued += data.length;
    this.#writing ??= this.#drain();
    return true;
  }

  /** Resolves once everything queued so far is written (or the link closed). */
  async flush(): Promise<void> {
    while (this.#writing) await this.#writing;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#queue = [];
    this.#queued = 0;
    try {
      this.#conn.close();
    } catch { /* already closed */ }
    this.#closedSignal.resolve();
  }

  [Symbol.dispose](): void {
    this.close();
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0 && !this.#closed) {
        const data = this.#queue.shift()!;
        for (let n = 0; n < data.length;) n += await this.#conn.write(data.subarray(n));
        this.#queued -= data.length;
      }
    } catch {
      this.close();
    } finally {
      this.#writing = null;
    }
  }
}

function isClosedError(error: unknown): boolean {
  return error instanceof Deno.errors.BadResource || error instanceof Deno.errors.ConnectionReset ||
    error instanceof Deno.errors.BrokenPipe || error instanceof Deno.errors.Interrupted;
}
