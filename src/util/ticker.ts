/**
 * Coalesced timers on a shared grid. Every wake-up of Deno's event loop
 * costs ~0.25–0.4 ms of CPU on the machines we measure on (bench/tui_cpu.ts),
 * so the periodic work of a busy lazyshell — the PTY reactor's batch reads,
 * detection's settle checks, the spinner clock — runs on one grid of
 * GRID_MS: `after(ms, fn)` runs fn at the first grid point at least `ms`
 * from now, and all callbacks due at a grid point share its one wake-up.
 *
 * While something is due at every grid point (a busy session) the grid is
 * one setInterval: re-arming a setTimeout at each point costs Deno a second
 * wake-up of its loop (measured: an empty 20 Hz setTimeout chain 0.93 % of
 * a core, setInterval 0.53–0.60 %). Sparse work gets one setTimeout at its
 * grid point, and an idle ticker arms nothing.
 *
 * Use it for work whose exact moment does not matter within GRID_MS; use
 * setTimeout for anything a person waits on (a keystroke's echo, Esc).
 *
 * Each callback is an entry point of its own (util/guard.ts): one that
 * throws is reported for its owner (`after`'s third argument, else "timer")
 * and the others of its grid point run; an `every` keeps its next run.
 */

import { fault, type Owner } from "./guard.ts";

/** The grid: 20 wake-ups a second at most while anything is scheduled. */
export const GRID_MS = 50;

/** A timer may fire a fraction of a millisecond before its point. */
const EARLY_MS = 1;

type TimerId = ReturnType<typeof setTimeout>;

/**
 * The host's timers and its microtask queue (tests count them; replay and
 * tests run them on a virtual clock, util/virtual_clock.ts).
 */
export interface Timers {
  setTimeout(fn: () => void, ms: number): TimerId;
  clearTimeout(id: TimerId | undefined): void;
  setInterval(fn: () => void, ms: number): TimerId;
  clearInterval(id: TimerId | undefined): void;
  queueMicrotask(fn: () => void): void;
}

const HOST_TIMERS: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (id) => clearInterval(id),
  queueMicrotask: (fn) => queueMicrotask(fn),
};

/**
 * What a state machine that runs on the grid is given (the session
 * detector, src/runtime/session_detector.ts): the process's ticker live, a
 * ticker on a virtual clock in replay and tests — the same schedule.
 */
export interface Scheduler {
  /** Runs `fn` at the first grid point at least `ms` from now; dispose to cancel. */
  after(ms: number, fn: () => void, owner?: Owner): Disposable;
  /** Runs `fn` at a grid point every `ms` (rounded up to the grid) until disposed. */
  every(ms: number, fn: () => void, owner?: Owner): Disposable;
  /** Runs `fn` once the grid point in progress has settled; false when none is. */
  whenSettled(fn: () => void, owner?: Owner): boolean;
  /** Runs `fn` once the work in progress is done (a microtask). */
  defer(fn: () => void): void;
}

interface Entry {
  readonly at: number;
  readonly fn: () => void;
  readonly owner: Owner;
  cancelled: boolean;
}

/** Whose callback it is, unless `after`/`every` were told. */
const TIMER: Owner = { name: "timer" };

export class Ticker implements Scheduler {
  readonly period: number;
  readonly #now: () => number;
  readonly #timers: Timers;
  #entries: Entry[] = [];
  /** The one-shot timer of a sparse grid point, and when it fires. */
  #timer: TimerId | undefined;
  #armedAt = Infinity;
  /** The interval of a busy grid, and when it fired last. */
  #interval: TimerId | undefined;
  #lastFire = -Infinity;
  /**
   * From a grid point until the microtasks it started have run: whatever
   * they schedule is looked at once, at the end.
   */
  #settling = false;
  #settled: Array<{ readonly fn: () => void; readonly owner: Owner }> = [];
  /** Grid points that fired (tests, diagnostics). */
  wakeups = 0;
  /** Told of every grid point that fires (onWake). */
  #wakeListeners = new Set<() => void>();

  constructor(
    period = GRID_MS,
    now: () => number = () => performance.now(),
    timers: Timers = HOST_TIMERS,
  ) {
    this.period = period;
    this.#now = now;
    this.#timers = timers;
  }

  /** Runs `fn` at the first grid point at least `ms` from now; dispose to cancel. */
  after(ms: number, fn: () => void, owner: Owner = TIMER): Disposable {
    const entry: Entry = { at: this.#now() + Math.max(0, ms), fn, owner, cancelled: false };
    this.#entries.push(entry);
    if (!this.#settling && this.#interval === undefined) this.#arm();
    return {
      [Symbol.dispose]: () => {
        if (entry.cancelled) return;
        entry.cancelled = true;
        this.#entries = this.#entries.filter((e) => e !== entry);
        if (this.#entries.length === 0) this.#stop();
      },
    };
  }

  /** Runs `fn` at a grid point every `ms` (rounded up to the grid) until disposed. */
  every(ms: number, fn: () => void, owner: Owner = TIMER): Disposable {
    let next: Disposable;
    let stopped = false;
    const run = () => {
      next = this.after(ms, run, owner);
      fn();
    };
    next = this.after(ms, run, owner);
    return {
      [Symbol.dispose]: () => {
        if (stopped) return;
        stopped = true;
        next[Symbol.dispose]();
      },
    };
  }

  /**
   * Runs `fn` once the grid point in progress has settled (its callbacks and
   * the microtasks they queued, e.g. the reactor's batch read), still in the
   * same wake-up. Returns false when no grid point is in progress.
   */
  whenSettled(fn: () => void, owner: Owner = TIMER): boolean {
    if (!this.#settling) return false;
    this.#settled.push({ fn, owner });
    return true;
  }

  /** Runs `fn` once the work in progress is done (a microtask of the host, or of a virtual clock). */
  defer(fn: () => void): void {
    this.#timers.queueMicrotask(fn);
  }

  /**
   * Calls `fn` at every grid point that fires: the process is doing
   * something (the server's memory trimmer runs only then, util/memory_trim.ts).
   * Keep it cheap: it runs up to 1000 / GRID_MS times a second.
   */
  onWake(fn: () => void): Disposable {
    this.#wakeListeners.add(fn);
    return { [Symbol.dispose]: () => void this.#wakeListeners.delete(fn) };
  }

  /** How many callbacks wait (tests). */
  get pending(): number {
    return this.#entries.length;
  }

  /** The one-shot timer for the earliest entry, at the grid point at or after it. */
  #arm(): void {
    if (this.#entries.length === 0) return this.#stop();
    const due = Math.min(...this.#entries.map((e) => e.at));
    const at = Math.ceil(due / this.period) * this.period;
    if (at >= this.#armedAt) return;
    this.#timers.clearTimeout(this.#timer);
    this.#armedAt = at;
    this.#timer = this.#timers.setTimeout(
      () => this.#fire(),
      Math.max(0, Math.ceil(at - this.#now())),
    );
  }

  #stop(): void {
    this.#timers.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedAt = Infinity;
    this.#timers.clearInterval(this.#interval);
    this.#interval = undefined;
  }

  #fire(): void {
    this.#timer = undefined;
    this.#armedAt = Infinity;
    this.wakeups++;
    for (const listener of this.#wakeListeners) run({ fn: listener, owner: TIMER });
    const now = this.#now();
    this.#lastFire = now;
    // In scheduling order.
    const due = this.#entries.filter((e) => e.at <= now + EARLY_MS);
    this.#entries = this.#entries.filter((e) => e.at > now + EARLY_MS);
    this.#settling = true;
    for (const entry of due) {
      entry.cancelled = true;
      run(entry);
    }
    // Promise continuations of the callbacks (the PTY reactor's batch read)
    // were queued before this and run first.
    this.#timers.queueMicrotask(() => {
      // One may ask for another (a classification whose new state a TUI draws once settled):
      // it runs now too, or it would wait for a grid point nothing may ever book.
      while (this.#settled.length > 0) for (const settled of this.#settled.splice(0)) run(settled);
      this.#settling = false;
      this.#next();
    });
  }

  /** After a grid point: keep the interval while the next point has work, else one timer or none. */
  #next(): void {
    const busy = this.#entries.some((e) => e.at <= this.#lastFire + this.period + EARLY_MS);
    if (busy) {
      this.#interval ??= this.#timers.setInterval(() => this.#fire(), this.period);
      return;
    }
    this.#timers.clearInterval(this.#interval);
    this.#interval = undefined;
    this.#arm();
  }
}

function run(callback: { readonly fn: () => void; readonly owner: Owner }): void {
  try {
    callback.fn();
  } catch (error) {
    fault(callback.owner, "timer", error);
  }
}

/** The process's grid: share it, or the wake-ups do not coalesce. */
export const ticker: Ticker = new Ticker();
