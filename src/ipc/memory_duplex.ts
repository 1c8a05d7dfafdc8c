/**
 * Two connected Duplex ends in memory, no socket: what one writes, the other
 * reads, in order. The server rehearses an attach over them
 * (src/server/rehearsal.ts). Closing either end ends both: a read waiting
 * there returns null, a later write throws.
 */

import type { Duplex } from "./duplex.ts";

/** One direction: chunks written and not read yet, and the read waiting for them. */
class Pipe {
  readonly chunks: Uint8Array[] = [];
  waiting: (() => void) | null = null;
  closed = false;

  wake(): void {
    const w = this.waiting;
    this.waiting = null;
    w?.();
  }
}

class End implements Duplex {
  readonly #in: Pipe;
  readonly #out: Pipe;

  constructor(input: Pipe, output: Pipe) {
    this.#in = input;
    this.#out = output;
  }

  async read(p: Uint8Array): Promise<number | null> {
    while (this.#in.chunks.length === 0) {
      if (this.#in.closed) return null;
      await new Promise<void>((resolve) => this.#in.waiting = resolve);
    }
    const chunk = this.#in.chunks[0]!;
    const n = Math.min(p.length, chunk.length);
    p.set(chunk.subarray(0, n));
    if (n === chunk.length) this.#in.chunks.shift();
    else this.#in.chunks[0] = chunk.subarray(n);
    return n;
  }

  write(p: Uint8Array): Promise<number> {
    if (this.#out.closed) return Promise.reject(new Error("the other end is closed"));
    this.#out.chunks.push(p.slice());
    this.#out.wake();
    return Promise.resolve(p.length);
  }

  close(): void {
    for (const pipe of [this.#in, this.#out]) {
      pipe.closed = true;
      pipe.wake();
    }
  }
}

/** Two ends of one connection. */
export function duplexPair(): [Duplex, Duplex] {
  const ab = new Pipe();
  const ba = new Pipe();
  return [new End(ba, ab), new End(ab, ba)];
}
