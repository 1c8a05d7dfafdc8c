/**
 * When a session's screen is classified (docs/detection.md, Scheduling): a trailing debounce —
 * `settleMs` of quiet after the last output — with a maximum wait of `maxWaitMs` from the first,
 * held while a synchronized update leaves the frame half drawn (at most `midUpdateMaxMs`) and
 * while output waits unread (up to the deadline); each check runs once the grid point's batch
 * read has. One timer per quiet period: output during it only moves the last output's time (no
 * clear and set per chunk under a flood); the timer re-arms itself.
 *
 * The same slot carries the detector's "look again" (`retry`): whatever is armed, a classification
 * comes, and the classification `reset`s it.
 */

import { faults } from "../util/fault_injection.ts";
import type { Owner } from "../util/guard.ts";
import type { DetectedSession, DetectorContext } from "./detector_context.ts";

/** What the timer reads of the detector's context: its clock, scheduler and schedule. */
export type SettleContext = Pick<
  DetectorContext,
  "now" | "scheduler" | "settleMs" | "maxWaitMs" | "midUpdateMaxMs"
>;

/** What it reads of the session. */
export type SettleSession = Pick<DetectedSession, "id" | "outputBehind" | "midUpdate">;

export class SettleTimer {
  #timer: Disposable | null = null;
  #firstOutputAt: number | null = null;
  #lastOutputAt = 0;
  /** Since when a settled screen has been held back for being mid-update, or null. */
  #midUpdateSince: number | null = null;

  /** `settled`: the screen is ready to classify. */
  constructor(
    private readonly session: SettleSession,
    private readonly ctx: SettleContext,
    private readonly owner: Owner,
    private readonly settled: () => void,
  ) {}

  /** Whether a check (or a look again) is armed. */
  get armed(): boolean {
    return this.#timer !== null;
  }

  /** Output now (or a title, a resize): a classification is due once the screen settles. */
  output(): void {
    const now = this.ctx.now();
    this.#firstOutputAt ??= now;
    this.#lastOutputAt = now;
    if (this.#timer === null) this.#arm(this.ctx.settleMs);
  }

  /** A classification runs: nothing armed, and the next output starts a new quiet period. */
  reset(): void {
    this.cancel();
    this.#firstOutputAt = null;
  }

  /** Runs `fn` in `ms` unless something is armed already (it brings a classification too). */
  retry(ms: number, fn: () => void): void {
    this.#timer ??= this.ctx.scheduler.after(ms, () => {
      this.#timer = null;
      fn();
    }, this.owner);
  }

  /** Disarms whatever is armed. */
  cancel(): void {
    this.#timer?.[Symbol.dispose]();
    this.#timer = null;
  }

  #arm(wait: number): void {
    const scheduler = this.ctx.scheduler;
    const timer = scheduler.after(wait, () => {
      // Once the grid point's batch read has run (whenSettled): it runs after the callbacks
      // of the point, and may bring the rest of a frame whose first part is on screen.
      const check = () => {
        if (this.#timer === timer) this.#check();
      };
      if (!scheduler.whenSettled(check, this.owner)) check();
    }, this.owner);
    this.#timer = timer;
  }

  /** Classify, or wait on while the output is not over. */
  #check(): void {
    this.#timer = null;
    if (this.#firstOutputAt === null) return;
    faults?.hit("timer", this.session.id);
    const now = this.ctx.now();
    const quiet = this.#lastOutputAt + this.ctx.settleMs - now;
    const deadline = this.#firstOutputAt + this.ctx.maxWaitMs - now;
    if (quiet > 0 && deadline > 0) this.#arm(Math.min(quiet, deadline));
    else if (this.#halfDrawn(now)) this.#arm(this.ctx.settleMs);
    // Bytes wait in the PTY (or in a flood's read-ahead): the screen may be a frame cut in two
    // reads. Read them first, up to the deadline (a flood never stops being behind).
    else if (deadline > 0 && this.session.outputBehind) {
      this.#arm(Math.min(this.ctx.settleMs, deadline));
    } else this.settled();
  }

  /**
   * The program is inside a synchronized update: its frame is half drawn
   * (Codex and opencode wrap every redraw in one; a read cut in the middle
   * of one showed a working agent idle in the captures). Wait for the end,
   * at most midUpdateMaxMs.
   */
  #halfDrawn(now: number): boolean {
    if (!this.session.midUpdate) {
      this.#midUpdateSince = null;
      return false;
    }
    this.#midUpdateSince ??= now;
    return now - this.#midUpdateSince < this.ctx.midUpdateMaxMs;
  }
}
