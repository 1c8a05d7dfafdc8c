/**
 * One connection to the lasting server: frames in (a client's hello, keys,
 * sizes) and frames out (what to draw, why it ended), in order. Writes go
 * through one queue with a byte bound: a client that stops reading is cut
 * off, never buffered without end (the server must not die of a client).
 * Frames in are bounded too, at a small limit until the hello is in
 * (docs/architecture.md, "Server and clients", Bounds). A client cut off
 * is told why: what was queued for it is dropped, an Exit with the reason
 * takes its place, and the connection closes once that is read (or after
 * a grace period, if it never is).
 */

import {
  type ExitMessage,
  frame,
  FrameError,
  FrameReader,
  FrameType,
  MAX_FRAME,
} from "../wire/protocol.ts";
import type { Frame } from "../wire/protocol.ts";
import { unreadMessage } from "./attach_limits.ts";
import type { Duplex } from "../ipc/duplex.ts";

/** Output queued for a client that does not read, before it is disconnected. */
export const MAX_QUEUED_BYTES = 16 * 1024 * 1024;
/** How long the Exit of a client cut off may wait to be read before the connection closes. */
export const EXIT_GRACE_MS = 5_000;

export class Link implements Disposable {
  readonly #conn: Duplex;
  #queue: Uint8Array[] = [];
  #queued = 0;
  #writing: Promise<void> | null = null;
  #closed = false;
  /** Cut off: only the Exit saying why is still to be written. */
  #leaving = false;
  #grace: ReturnType<typeof setTimeout> | undefined;
  #closedSignal = Promise.withResolvers<void>();
  readonly #reader: FrameReader;

  /** `firstFrame`: the longest first frame read (the hello), MAX_FRAME for the others. */
  constructor(conn: Duplex, firstFrame = MAX_FRAME) {
    this.#conn = conn;
    this.#reader = new FrameReader(MAX_FRAME, firstFrame);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Cut off (refuse): nothing more is sent but the Exit saying why. */
  get leaving(): boolean {
    return this.#leaving;
  }

  /** Bytes queued and not yet written. */
  get queued(): number {
    return this.#queued;
  }

  /** Resolves once the connection is closed (by either side). */
  get whenClosed(): Promise<void> {
    return this.#closedSignal.promise;
  }

  /**
   * Frames as they arrive; ends at EOF, on a read error (then closes) or on
   * a frame over the limit (then refuses: the client hears why).
   */
  async *frames(): AsyncGenerator<Frame> {
    const reader = this.#reader;
    const buf = new Uint8Array(64 * 1024);
    try {
      for (;;) {
        const n = await this.#conn.read(buf);
        if (n === null) return;
        for (const f of reader.push(buf.subarray(0, n))) yield f;
      }
    } catch (error) {
      if (error instanceof FrameError) this.refuse(error.message);
      else if (!isClosedError(error)) throw error;
    } finally {
      this.close();
    }
  }

  /** Queues one frame; false when the link is closed or was just cut off for not reading. */
  send(type: FrameType, payload: Uint8Array | string | object): boolean {
    if (this.#closed || this.#leaving) return false;
    const data = frame(type, payload);
    if (this.#queued + data.length > MAX_QUEUED_BYTES) {
      this.refuse(unreadMessage(MAX_QUEUED_BYTES));
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

  /**
   * Tells the client why it is cut off (an Exit of reason `error`, the
   * line it prints) in place of whatever was queued and not begun; the
   * connection closes once that is written, or after `graceMs`.
   */
  refuse(message: string, graceMs = EXIT_GRACE_MS): void {
    if (this.#closed || this.#leaving) return;
    this.#leaving = true;
    for (const data of this.#queue) this.#queued -= data.length;
    const exit: ExitMessage = { reason: "error", message, code: 1 };
    const data = frame(FrameType.Exit, exit);
    this.#queue = [data];
    this.#queued += data.length;
    this.#grace = setTimeout(() => this.#shut(), graceMs);
    this.#writing ??= this.#drain();
    void this.flush().then(() => this.#shut());
  }

  /** Closes now; after refuse(), once its Exit is written (at most its grace period). */
  close(): void {
    if (!this.#leaving) this.#shut();
  }

  #shut(): void {
    if (this.#closed) return;
    clearTimeout(this.#grace);
    this.#closed = true;
    this.#queue = [];
    this.#queued = 0;
    try {
      this.#conn.close();
    } catch { /* already closed */ }
    this.#closedSignal.resolve();
  }

  /** Closes now, an Exit on its way or not. */
  [Symbol.dispose](): void {
    this.#shut();
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0 && !this.#closed) {
        const data = this.#queue.shift()!;
        for (let n = 0; n < data.length;) n += await this.#conn.write(data.subarray(n));
        this.#queued -= data.length;
      }
    } catch {
      this.#shut();
    } finally {
      this.#writing = null;
    }
  }
}

function isClosedError(error: unknown): boolean {
  return error instanceof Deno.errors.BadResource || error instanceof Deno.errors.ConnectionReset ||
    error instanceof Deno.errors.BrokenPipe || error instanceof Deno.errors.Interrupted;
}
