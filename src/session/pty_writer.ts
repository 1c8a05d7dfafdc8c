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
 */

import { EAGAIN, EINTR, type Libc, libc } from "./libc.ts";

const RETRY_MIN_MS = 1;
const RETRY_MAX_MS = 50;

export class PtyWriter {
  readonly #fd: number;
  readonly #libc: Libc;
  #queue: Uint8Array[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #delay = RETRY_MIN_MS;
  #closed = false;

  private constructor(fd: number, lib: Libc) {
    this.#fd = fd;
    this.#libc = lib;
  }

  /** A writer for this fd, or null when FFI is not available (use node-pty's write). */
  static open(fd: number | undefined): PtyWriter | null {
    if (typeof fd !== "number" || fd < 0) return null;
    const lib = libc();
    return lib ? new PtyWriter(fd, lib) : null;
  }

  /** Bytes still waiting for the child to read. */
  get pending(): number {
    return this.#queue.reduce((n, b) => n + b.length, 0);
  }

  write(data: string): void {
    if (this.#closed || data.length === 0) return;
    this.#queue.push(new TextEncoder().encode(data));
    if (this.#timer === undefined) this.#flush();
  }

  /** Drops whatever waits and stops retrying (the child exited or the session ended). */
  close(): void {
    this.#closed = true;
    this.#queue = [];
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #flush(): void {
    this.#timer = undefined;
    while (this.#queue.length > 0) {
      const head = this.#queue[0]!;
      const n = this.#libc.write(this.#fd, head, head.length);
      if (n < 0) {
        const errno = this.#libc.errno();
        if (errno === EINTR) continue;
        if (errno !== EAGAIN) return this.close();
        this.#timer = setTimeout(() => this.#flush(), this.#delay);
        this.#delay = Math.min(RETRY_MAX_MS, this.#delay * 2);
        return;
      }
      this.#delay = RETRY_MIN_MS;
      if (n >= head.length) this.#queue.shift();
      else this.#queue[0] = head.subarray(n);
    }
  }
}
