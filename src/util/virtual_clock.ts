/**
 * Time that moves only when told: the host's timers and microtask queue
 * (ticker.ts `Timers`) on a virtual clock. Replay (src/replay/replay.ts)
 * and tests run the detection engine's own ticker on it, so a capture's
 * chunk times and a test's steps meet the same schedule as a live session,
 * without waiting for it.
 *
 * `advanceTo(t)` runs every timer due by `t` in time order (then in the
 * order they were set), each followed by the work it deferred, as the host's
 * event loop runs a timer and then its microtasks; then the clock reads `t`.
 */

import { GRID_MS, Ticker, type Timers } from "./ticker.ts";

type TimerId = ReturnType<typeof setTimeout>;

/** The host's timer ids are opaque; here they are numbers. */
const asId = (n: number) => n as unknown as TimerId;
const ofId = (id: TimerId) => id as unknown as number;

interface Timer {
  at: number;
  readonly order: number;
  readonly fn: () => void;
  /** Period of an interval, null for a one-shot timer. */
  readonly every: number | null;
}

export class VirtualClock implements Timers {
  #now: number;
  #ids = 0;
  #timers = new Map<number, Timer>();
  #deferred: (() => void)[] = [];

  constructor(start = 0) {
    this.#now = start;
  }

  /** The clock's time, in ms. */
  readonly now = (): number => this.#now;

  /** A ticker on this clock, on the grid the process's own runs on (ticker.ts). */
  ticker(period = GRID_MS): Ticker {
    return new Ticker(period, this.now, this);
  }

  setTimeout(fn: () => void, ms: number): TimerId {
    return this.#add(fn, ms, null);
  }

  setInterval(fn: () => void, ms: number): TimerId {
    return this.#add(fn, ms, Math.max(1, ms));
  }

  clearTimeout(id: TimerId | undefined): void {
    if (id !== undefined) this.#timers.delete(ofId(id));
  }

  clearInterval(id: TimerId | undefined): void {
    this.clearTimeout(id);
  }

  queueMicrotask(fn: () => void): void {
    this.#deferred.push(fn);
  }

  /** When the next timer is due, or null when none is set. */
  get next(): number | null {
    return this.#earliest(Infinity)?.at ?? null;
  }

  /** Timers set and not yet run (intervals count until cleared). */
  get pending(): number {
    return this.#timers.size;
  }

  /** Runs the deferred work, then every timer due up to `to`; the clock then reads `to`. */
  advanceTo(to: number): void {
    this.#run(to, true);
  }

  /** advanceTo(now + ms). */
  advance(ms: number): void {
    this.#run(this.#now + ms, true);
  }

  /**
   * Moves to `t` ahead of the timers due at `t` (they run at the next
   * advance): what happens at `t` comes first, as the PTY reactor's read at
   * a grid point comes before that point's settle checks.
   */
  enter(t: number): void {
    this.#run(t, false);
  }

  #run(to: number, inclusive: boolean): void {
    this.#drain();
    for (let timer = this.#earliest(to, inclusive); timer; timer = this.#earliest(to, inclusive)) {
      this.#now = Math.max(this.#now, timer.at);
      if (timer.every === null) this.#timers.delete(timer.order);
      else timer.at += timer.every;
      timer.fn();
      this.#drain();
    }
    this.#now = Math.max(this.#now, to);
  }

  #add(fn: () => void, ms: number, every: number | null): TimerId {
    const order = ++this.#ids;
    this.#timers.set(order, { at: this.#now + Math.max(0, ms), order, fn, every });
    return asId(order);
  }

  /** The timer due first by `to` (the earliest set first on a tie). */
  #earliest(to: number, inclusive = true): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.#timers.values()) {
      const due = inclusive ? t.at <= to : t.at < to;
      if (due && (!best || t.at < best.at)) best = t;
    }
    return best;
  }

  #drain(): void {
    while (this.#deferred.length > 0) this.#deferred.shift()!();
  }
}
