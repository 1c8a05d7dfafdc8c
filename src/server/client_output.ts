/**
 * What is sent to one attached client's terminal (docs/architecture.md,
 * "Server and clients"): written to the terminal itself (client_tty.ts),
 * held until the client says Ready, or relayed in Output frames. Bounded per
 * client (MAX_QUEUED_BYTES) and, through `written`, across all of them
 * (attach_limits.ts): a client past a bound is dropped — what waits for it
 * goes, its terminal is let go, then it hears why in one line.
 *
 * Frames coalesce for a client that cannot keep up (docs/architecture.md,
 * Bounds): while a frame still waits to be written to it (`behind`), its TUI
 * skips drawing; once that is written (`drained()`), it draws one frame, the
 * diff against the last one queued. What waits stays about one frame, so a
 * client that never reads no longer reaches MAX_QUEUED_BYTES with frames: it
 * is dropped when what waits is not taken within `stalledMs`.
 */

import {
  type AttachLimits,
  overflow,
  overflowMessage,
  stalledMessage,
  unreadMessage,
} from "./attach_limits.ts";
import type { ClientTty } from "./client_tty.ts";
import { type Link, MAX_QUEUED_BYTES } from "./link.ts";
import { FrameType } from "../wire/protocol.ts";

/**
 * Output a client that acknowledges (FrameType.Ack) may have sent and not
 * written to its terminal before the next frame waits: what a slow link's
 * buffers (the socket's, ssh's, TCP's) hold for it. 16 KiB is ~4 s at
 * 4 KiB/s, 160 ms at 100 KiB/s.
 */
export const ACK_WINDOW = 16 * 1024;

export interface OutputHooks {
  readonly log: (line: string) => void;
  /** After each write: the server checks the bound across all clients. */
  readonly written: () => void;
  /** What waits not taken within this long: the client is dropped (attach_limits.ts). */
  readonly stalledMs: number;
}

export class ClientOutput {
  readonly #link: Link;
  readonly #tty: ClientTty | null;
  readonly #hooks: OutputHooks;
  /** Drawn before the client has its terminal in raw mode on the alternate screen (Ready). */
  #held: Array<string | Uint8Array> | null;
  #heldBytes = 0;
  #dropped = false;
  /** Output frames sent whose Ack has not come (their sizes, oldest first); null: it sends none. */
  readonly #unacked: number[] | null;
  #unackedBytes = 0;
  #ackedFrames = 0;
  /** drained() callers waiting for Acks. */
  #ackWaiters: Array<() => void> = [];
  /** Runs while something waits for the client: it has `stalledMs` to take it. */
  #stall: ReturnType<typeof setTimeout> | undefined;

  /** `acks`: the client acknowledges the Output frames it wrote (hello `acks`, FrameType.Ack). */
  constructor(link: Link, tty: ClientTty | null, hooks: OutputHooks, acks = false) {
    this.#link = link;
    this.#tty = tty;
    this.#hooks = hooks;
    this.#held = tty ? [] : null;
    this.#unacked = acks && !tty ? [] : null;
  }

  /** Dropped, or its link cut off: nothing more is written, nothing read from it counts. */
  get gone(): boolean {
    return this.#dropped || this.#link.leaving;
  }

  /** Bytes waiting for this client (0 once it is gone). */
  get queued(): number {
    if (this.gone) return 0;
    return (this.#held ? this.#heldBytes : 0) + (this.#tty?.pending ?? 0) + this.#link.queued;
  }

  /**
   * A frame drawn before still waits to be written to the client (not
   * counting what its kernel buffers hold): the next one is not drawn yet.
   */
  get behind(): boolean {
    if (this.gone || this.#held) return false;
    return (this.#tty ? this.#tty.pending : this.#link.queued) > 0 || this.#ackBehind();
  }

  /** More than ACK_WINDOW sent and not acknowledged: in the buffers of a slow link (ssh). */
  #ackBehind(): boolean {
    return this.#unackedBytes > ACK_WINDOW && !this.gone;
  }

  /** Resolves once nothing waits for the client (within ACK_WINDOW unacknowledged), or it is gone. */
  async drained(): Promise<void> {
    if (this.#tty) return await this.#tty.drained();
    await this.#link.flush();
    if (this.#ackBehind()) await new Promise<void>((resolve) => this.#ackWaiters.push(resolve));
  }

  /** FrameType.Ack: the client wrote its first `frames` Output frames to its terminal. */
  acked(frames: number): void {
    const unacked = this.#unacked;
    if (!unacked) return;
    // Frames acknowledged since the last Ack: those past what was sent are ignored.
    const count = Math.max(0, frames - this.#ackedFrames);
    this.#ackedFrames += count;
    for (let i = 0; i < count && unacked.length > 0; i++) this.#unackedBytes -= unacked.shift()!;
    if (!this.#ackBehind()) this.#wake();
  }

  #wake(): void {
    const waiters = this.#ackWaiters;
    this.#ackWaiters = [];
    for (const wake of waiters) wake();
  }

  write(bytes: string | Uint8Array): void {
    if (this.gone) return;
    if (this.#held) {
      this.#held.push(bytes);
      this.#heldBytes += bytes.length;
      if (this.#heldBytes > MAX_QUEUED_BYTES) this.drop("Disconnected: the client never got ready");
    } else if (this.#tty ? !this.#tty.write(bytes) : !this.#relay(bytes)) {
      this.drop(unreadMessage(MAX_QUEUED_BYTES));
    } else if (this.#stall === undefined && this.behind) {
      const ms = this.#hooks.stalledMs;
      this.#stall = setTimeout(() => this.drop(stalledMessage(ms)), ms);
      void this.drained().then(() => {
        clearTimeout(this.#stall);
        this.#stall = undefined;
      });
    }
    this.#hooks.written();
  }

  /** In an Output frame; false when that would pass MAX_QUEUED_BYTES (nothing sent). */
  #relay(bytes: string | Uint8Array): boolean {
    // UTF-8 takes at least a byte per UTF-16 unit, the frame 5 more.
    if (this.#link.queued + bytes.length + 5 > MAX_QUEUED_BYTES) return false;
    if (!this.#link.send(FrameType.Output, bytes)) return true; // cut off meanwhile: said there
    if (this.#unacked) {
      this.#unacked.push(bytes.length);
      this.#unackedBytes += bytes.length;
    }
    return true;
  }

  /** The client's terminal is ready (Ready): what was drawn meanwhile goes out; false if none was held. */
  ready(): boolean {
    const drawn = this.#held;
    if (!drawn) return false;
    this.#held = null;
    for (const bytes of drawn) this.write(bytes);
    return true;
  }

  /** Past a bound: what waits goes, the terminal is let go, then the client hears `message`. */
  drop(message: string): void {
    if (this.#dropped) return;
    this.#dropped = true;
    this.#held = null;
    clearTimeout(this.#stall);
    this.#wake();
    this.#hooks.log(message);
    // What waits is let go now: the relayed frames here, the terminal's queue in discard().
    if (this.#tty) void this.#tty.discard().then(() => this.#link.refuse(message));
    else this.#link.refuse(message);
  }
}

/**
 * Output waiting for all clients together is bounded: over it, the clients
 * holding the most are dropped, each told why (attach_limits.ts).
 */
export function dropOverflow(
  clients: ReadonlyMap<string, { readonly output: ClientOutput }>,
  limits: AttachLimits,
): void {
  let total = 0;
  for (const c of clients.values()) total += c.output.queued;
  if (total <= limits.maxQueuedTotal) return;
  const queued = [...clients.values()].map(({ output }) => ({ output, bytes: output.queued }));
  for (const q of overflow(queued, limits.maxQueuedTotal)) {
    q.output.drop(overflowMessage(q.bytes, limits));
  }
}
