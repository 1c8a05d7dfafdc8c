/**
 * When a page's watched screen is sent (docs/web.md, "Bounds"): a pure
 * state machine on the caller's clock, apart from the socket and the
 * timer. The first change after a quiet spell goes at once (an echo shows
 * without waiting); changes that follow within `intervalMs` of the last
 * frame wait and go together in one frame at the interval's end, which
 * then carries every row changed since the last one (the screen reader
 * keeps them). A pending change always gets its frame: the last state of
 * the screen is never lost. While the page's socket has not written out
 * what it was given (draining), the frame waits, at most `maxDrainWaitMs`
 * past its time: no reading, no encoding for a page that could not take
 * it yet.
 */

export interface PacerOptions {
  /** Least time between two frames. */
  readonly intervalMs: number;
  /** How long a due frame waits for a draining socket before it goes anyway. */
  readonly maxDrainWaitMs: number;
}

/** A timer may fire this much before its time (the shared grid's, util/ticker.ts): on time. */
export const TIMER_SLACK_MS = 1;

/** What to do when the timer fires: send a frame, call `due` again in `ms`, or nothing. */
export type PacerStep = "send" | { readonly waitMs: number } | null;

export class FramePacer {
  readonly #options: PacerOptions;
  /** Changes not yet carried by a frame. */
  #pending = false;
  /** A timer is armed: `due` will be called. */
  #armed = false;
  #lastFrame = Number.NEGATIVE_INFINITY;
  /** When the pending frame first found the socket draining. */
  #drainingSince: number | null = null;

  constructor(options: PacerOptions) {
    this.#options = options;
  }

  /** Whether a change waits for its frame. */
  get pending(): boolean {
    return this.#pending;
  }

  /**
   * The screen changed at `now`: the delay after which to call `due`, or
   * null when a call is already coming (this change goes with it).
   */
  changed(now: number): number | null {
    this.#pending = true;
    if (this.#armed) return null;
    this.#armed = true;
    return Math.max(0, this.#lastFrame + this.#options.intervalMs - now);
  }

  /**
   * The timer fired at `now`; `draining`: the socket still holds bytes
   * it was given. "send": read the screen and send the rows changed since
   * the last frame (the frame counts as sent at `now`).
   */
  due(now: number, draining: boolean): PacerStep {
    this.#armed = false;
    if (!this.#pending) return null;
    // Early (a timer armed before a whole screen was sent): the interval counts from that.
    const early = this.#lastFrame + this.#options.intervalMs - now;
    if (early > TIMER_SLACK_MS) {
      this.#armed = true;
      return { waitMs: early };
    }
    if (draining) {
      this.#drainingSince ??= now;
      const waited = now - this.#drainingSince;
      if (waited < this.#options.maxDrainWaitMs) {
        this.#armed = true;
        return {
          waitMs: Math.min(this.#options.intervalMs, this.#options.maxDrainWaitMs - waited),
        };
      }
    }
    this.#drainingSince = null;
    this.#pending = false;
    this.#lastFrame = now;
    return "send";
  }

  /** Starts again (a new screen was sent whole at `now`): nothing pending. */
  reset(now: number): void {
    this.#pending = false;
    this.#drainingSince = null;
    this.#lastFrame = now;
  }
}
