/**
 * Writes to a PTY master fd completely, in order, however large the data.
 *
 * Why: under Deno, node-pty's `write()` goes through a node:tty socket that
 * stops writing once the kernel's PTY buffer is full (EAGAIN) and never
 * resumes: a 1 MiB paste delivered ~25 KiB (tests/tui_input_test.ts). Here
 * the bytes go out with write(2) through FFI; what does not fit waits in a
 * queue retried with a short backoff until the child reads, errors other
 * than EAGAIN drop the queue (the child is gone). Without FFI (Windows, no
 * libc) the caller keeps node-pty's own write.
 *
 * The queue is bounded (MAX_QUEUED_INPUT): a child that does not read its
 * input (`sleep 1000`) would otherwise make every `ctl send` grow our
 * memory. A write that does not fit whole is refused — nothing of it is
 * queued — and the caller says so: nothing is accepted that cannot be
 * delivered.
 */

import { type Libc, libc } from "./libc.ts";

const RETRY_MIN_MS = 1;
const RETRY_MAX_MS = 50;
/** Input waiting for one child to read; above it writes are refused (docs/control-api.md). */
export const MAX_QUEUED_INPUT = 4 * 1024 * 1024;

/** One encoder for every write: a key typed and each frame drawn pass here. */
const encoder = new TextEncoder();

export class PtyWriter {
  readonly #fd: number;
  readonly #libc: Libc;
  readonly #limit: number;
  #queue: Uint8Array[] = [];
  #pending = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #delay = RETRY_MIN_MS;
  #closed = false;
  #drained: PromiseWithResolvers<void> | null = null;

  private constructor(fd: number, lib: Libc, limit: number) {
    this.#fd = fd;
    this.#libc = lib;
    this.#limit = limit;
  }

  /**
   * A writer for this fd, or null when FFI is not available (use node-pty's
   * write). `limit`: bytes that may wait for the reader (default MAX_QUEUED_INPUT);
   * `lib`: the libc to write with (default this platform's).
   */
  static open(
    fd: number | undefined,
    limit = MAX_QUEUED_INPUT,
    lib: Libc | null = libc(),
  ): PtyWriter | null {
    if (typeof fd !== "number" || fd < 0) return null;
    return lib ? new PtyWriter(fd, lib, limit) : null;
  }

  /** Bytes still waiting for the child to read. */
  get pending(): number {
    return this.#pending;
  }

  /**
   * Queues `data` whole and starts writing; false (nothing queued) when it
   * does not fit. Bytes are kept as they are until written: not to be reused.
   */
  write(data: string | Uint8Array): boolean {
    if (this.#closed || data.length === 0) return !this.#closed;
    // UTF-8 takes at least a byte per UTF-16 unit: refuse before encoding what cannot fit.
    if (this.#pending + data.length > this.#limit) return false;
    const bytes = typeof data === "string" ? encoder.encode(data) : data;
    if (this.#pending + bytes.length > this.#limit) return false;
    this.#queue.push(bytes);
    this.#pending += bytes.length;
    if (this.#timer === undefined) this.#flush();
    return true;
  }

  /** Resolves once nothing waits any more: all written, or the writer closed. */
  drained(): Promise<void> {
    if (this.#pending === 0 || this.#closed) return Promise.resolve();
    this.#drained ??= Promise.withResolvers();
    return this.#drained.promise;
  }

  /** Drops whatever waits and stops retrying (the child exited or the session ended). */
  close(): void {
    this.#closed = true;
    this.#queue = [];
    this.#pending = 0;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#settle();
  }

  #settle(): void {
    this.#drained?.resolve();
    this.#drained = null;
  }

  #flush(): void {
    this.#timer = undefined;
    while (this.#queue.length > 0) {
      const head = this.#queue[0]!;
      const n = this.#libc.write(this.#fd, head, head.length);
      if (n < 0) {
        const errno = this.#libc.errno();
        if (errno === this.#libc.codes.EINTR) continue;
        if (errno !== this.#libc.codes.EAGAIN) return this.close();
        this.#timer = setTimeout(() => this.#flush(), this.#delay);
        this.#delay = Math.min(RETRY_MAX_MS, this.#delay * 2);
        return;
      }
      this.#delay = RETRY_MIN_MS;
      this.#pending -= n;
      if (n >= head.length) this.#queue.shift();
      else this.#queue[0] = head.subarray(n);
    }
    this.#settle();
  }
}
