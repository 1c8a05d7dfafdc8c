/**
 * The PTY reactor's flood path (pty_reactor.ts): when one drain of an fd reads FLOOD_BYTES or
 * more the writer was blocked on a full PTY buffer, and the fd is handed to a read-ahead reader
 * on a worker thread (readFlood) until a read comes back short. What it reads is parsed in
 * pieces by one pump shared by every flood (FloodParser), within the budget all floods share
 * (flood_budget.ts), so the rest of the process is served between them.
 */

import type { FloodBudget } from "./flood_budget.ts";
import type { Libc } from "./libc.ts";

/**
 * A drain this large means the writer was blocked on a full PTY buffer
 * (a flood): read again at once, not at the next tick.
 */
export const FLOOD_BYTES = 16 * 1024;
/** A flood reader's buffers (two: one read into while the other is parsed). */
export const BUFFER_BYTES = 256 * 1024;
/** A flood is parsed in pieces this size (~1 ms each), the budget checked between them. */
const FLOOD_PIECE = 16 * 1024;

/** Where a flood's bytes go (the reactor's entry of the fd). */
export interface FloodTarget {
  /** The fd was removed: its remaining bytes are dropped. */
  readonly gone: boolean;
  readonly source: { data(bytes: Uint8Array): void };
}

/**
 * Reads a flood: read-ahead on a worker thread (whole buffers through an
 * unbuffered stdio stream) while this thread parses the previous buffer.
 * A read(2) of a PTY returns at most 4 KiB and costs ~40 µs on the VMs we
 * measure on, as much as parsing it: overlapping the two is what makes a
 * flood as fast as tmux (bench/throughput.ts). Ends when a read comes back
 * short or `more()` says stop; `parse` resolves once its buffer may be read into again.
 */
export async function readFlood(
  lib: Libc,
  stream: NonNullable<Deno.PointerValue>,
  more: () => boolean,
  parse: (bytes: Uint8Array) => Promise<void>,
): Promise<void> {
  const buffers = [new Uint8Array(BUFFER_BYTES), new Uint8Array(BUFFER_BYTES)];
  let which = 0;
  let pending: Promise<number> | null = lib.readAllAsync(stream, buffers[0]!, BUFFER_BYTES);
  while (pending) {
    const n: number = await pending;
    pending = null;
    const chunk = buffers[which]!;
    if (n >= FLOOD_BYTES && more()) {
      which ^= 1;
      pending = lib.readAllAsync(stream, buffers[which]!, BUFFER_BYTES);
    }
    if (n > 0) await parse(chunk.subarray(0, n));
  }
}

interface Piece {
  readonly target: FloodTarget;
  readonly bytes: Uint8Array;
  at: number;
  readonly done: () => void;
}

/**
 * Parses the floods' buffers in pieces, one piece of each flooding session
 * in turn, within the shared budget (flood_budget.ts). One loop, not one per
 * session: when a turn's budget is spent a single continuation waits for the
 * next turn and the event loop polls its sockets in between (with one
 * continuation per flooding session, 16 floods held a control request for
 * hundreds of ms per turn, measured).
 */
export class FloodParser {
  /** Flood buffers waiting to be parsed, a piece at a time, round robin. */
  readonly #pieces: Piece[] = [];
  #pumping = false;

  constructor(private readonly budget: FloodBudget) {}

  /** Queues a flood's buffer; resolves once it is parsed (its buffer may then be read into). */
  parse(target: FloodTarget, bytes: Uint8Array): Promise<void> {
    return new Promise((done) => {
      this.#pieces.push({ target, bytes, at: 0, done });
      if (!this.#pumping) void this.#pump();
    });
  }

  async #pump(): Promise<void> {
    this.#pumping = true;
    try {
      while (this.#pieces.length > 0) {
        const wait = this.budget.ready();
        if (wait) {
          await wait;
          continue;
        }
        const piece = this.#pieces.shift()!;
        const { target, bytes, at } = piece;
        const end = Math.min(bytes.length, at + FLOOD_PIECE);
        if (!target.gone) this.budget.spend(() => target.source.data(bytes.subarray(at, end)));
        piece.at = end;
        if (end < bytes.length && !target.gone) this.#pieces.push(piece);
        else piece.done();
      }
    } finally {
      this.#pumping = false;
    }
  }
}
