/**
 * The PTY reactor's flood path (pty_reactor.ts): when one drain of an fd at a grid point reads
 * FLOOD_BYTES or more, output arrives faster than the grid reads it, and the fd is handed to a
 * read-ahead reader on a worker thread (readFlood) until a whole grid period brings less than
 * that. What it reads is parsed in pieces by one pump shared by every flood (FloodParser),
 * within the budget all floods share (flood_budget.ts), so the rest of the process is served
 * between them.
 *
 * Why FLOOD_BYTES is small, and why a flood outlives a short read (docs/architecture.md,
 * "Floods"): a writer blocked on a full PTY waits for the next read, and a full PTY holds only
 * 7.9–20 KiB on Linux, by the bytes written and the size of the writes (10–12 KiB of
 * full-screen synchronized frames). When a flood was 16 KiB, the first read that caught up
 * with the writer ended it, and a drain of a full PTY of frames was too small to start it
 * again: the fd was read once per 50 ms grid point, 10–12 KiB a time, while the writer slept
 * on the full PTY (50 MB of frames took 55–73 s, the process idle).
 */

import type { FloodBudget } from "./flood_budget.ts";
import { type Libc, pollfds } from "./libc.ts";
import { GRID_MS } from "../util/ticker.ts";

/**
 * Output of this much at one grid point comes faster than the grid reads it: the fd gets a
 * flood reader. Below what a full PTY holds (7.9 KiB the least measured): a writer that
 * blocked on a full PTY always starts one; a spinner's or a prompt's redraw never does.
 */
export const FLOOD_BYTES = 4 * 1024;
/** A flood reader's buffers (two: one read into while the other is parsed). */
export const BUFFER_BYTES = 256 * 1024;
/** A flood is parsed in pieces this size (~1 ms each), the budget checked between them. */
const FLOOD_PIECE = 16 * 1024;
/** A flood ends when a period this long brings less than FLOOD_BYTES: the grid's. */
export const FLOOD_QUIET_MS = GRID_MS;

/** Where a flood's bytes go (the reactor's entry of the fd). */
export interface FloodTarget {
  /** The fd was removed: its remaining bytes are dropped. */
  readonly gone: boolean;
  readonly source: { data(bytes: Uint8Array): void };
}

/** A flood reader running (readFlood). */
export interface FloodRead {
  /** Resolves when the flood is over and the fd may go back to the reactor's loops. */
  readonly done: Promise<void>;
  /** It caught up with the writer and waits for more: nothing read is in flight. */
  readonly waiting: boolean;
}

/**
 * Reads a flood: read-ahead on a worker thread (whole buffers through an
 * unbuffered stdio stream) while this thread parses the previous buffer.
 * A read(2) of a PTY returns at most 4 KiB and costs ~40 µs on the VMs we
 * measure on, as much as parsing it: overlapping the two is what makes a
 * flood as fast as tmux (bench/throughput.ts).
 *
 * A read that comes back short caught up with the writer; the writer may be
 * about to write again (a program drawing frames on a timer writes one, then
 * sleeps). The reader then waits on a worker thread for the fd to be readable
 * and reads on, until a period of FLOOD_QUIET_MS brings less than
 * FLOOD_BYTES, or `more()` says stop, or the fd hung up. `parse` resolves
 * once its buffer may be read into again.
 */
export function readFlood(
  lib: Libc,
  fd: number,
  stream: NonNullable<Deno.PointerValue>,
  more: () => boolean,
  parse: (bytes: Uint8Array) => Promise<void>,
  now: () => number = () => performance.now(),
): FloodRead {
  const state = { waiting: false };
  const pollfd = pollfds([fd]);
  /** Caught up: true when the fd became readable within the period, false when the flood is over. */
  const readable = async (window: { start: number; bytes: number }): Promise<boolean> => {
    for (;;) {
      let left = window.start + FLOOD_QUIET_MS - now();
      if (left <= 0) {
        if (window.bytes < FLOOD_BYTES) return false;
        window.start = now();
        window.bytes = 0;
        left = FLOOD_QUIET_MS;
      }
      state.waiting = true;
      let ready: number;
      try {
        ready = await lib.pollAsync(pollfd, 1, Math.ceil(left));
      } finally {
        state.waiting = false;
      }
      if (!more()) return false;
      if (ready > 0) return true;
    }
  };
  const run = async () => {
    const buffers = [new Uint8Array(BUFFER_BYTES), new Uint8Array(BUFFER_BYTES)];
    const window = { start: now(), bytes: 0 };
    let which = 0;
    let afterPoll = false;
    let pending: Promise<number> | null = lib.readAllAsync(stream, buffers[0]!, BUFFER_BYTES);
    while (pending) {
      const n: number = await pending;
      pending = null;
      window.bytes += n;
      // Readable, yet nothing to read: the other side hung up (the loops report it).
      if (n === 0 && afterPoll) break;
      const chunk = buffers[which]!;
      if (n >= FLOOD_BYTES && more()) {
        which ^= 1;
        pending = lib.readAllAsync(stream, buffers[which]!, BUFFER_BYTES);
      }
      if (n > 0) await parse(chunk.subarray(0, n));
      afterPoll = false;
      if (pending || !more() || !await readable(window)) continue;
      afterPoll = true;
      which ^= 1;
      pending = lib.readAllAsync(stream, buffers[which]!, BUFFER_BYTES);
    }
  };
  return {
    done: run(),
    get waiting() {
      return state.waiting;
    },
  };
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
