/**
 * Coalesced timers on a shared grid. Every wake-up of Deno's event loop
 * costs ~0.25–0.4 ms of CPU on the machines we measure on (bench/tui_cpu.ts),
 * so the periodic work of a busy lazyshell — the PTY reactor's batch reads,
 * detection's settle checks, the spinner clock — runs on one grid of
 * GRID_MS: `after(ms, fn)` runs fn at the first grid point at least `ms`
 * from now, and all callbacks due at a grid point share its one wake-up.
 *
 * Use it for work whose exact moment does not matter within GRID_MS; use
 * setTimeout for anything a person waits on (a keystroke's echo, Esc).
 */

/** The grid: 25 wake-ups a second at most while anything is scheduled. */
export const GRID_MS = 50;

interface Entry {
  readonly at: number;
  readonly fn: () => void;
  cancelled: boolean;
}

export class Ticker {
  readonly period: number;
  readonly #now: () => number;
  #entries: Entry[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #armedAt = Infinity;
  /**
   * From a grid point until the microtasks it started have run: whatever
   * they schedule waits for the one re-arm at the end (one setTimeout per
   * grid point, not one per callback).
   */
  #settling = false;
  /** Grid points that fired (tests, diagnostics). */
  wakeups = 0;

  constructor(period = GRID_MS, now: () => number = () => performance.now()) {
    this.period = period;
    this.#now = now;
  }

  /** Runs `fn` at the first grid point at least `ms` from now; dispose to cancel. */
  after(ms: number, fn: () => void): Disposable {
    const at = Math.ceil((this.#now() + Math.max(0, ms)) / this.period) * this.period;
    const entry: Entry = { at, fn, cancelled: false };
    this.#entries.push(entry);
    if (!this.#settling && at < this.#armedAt) this.#arm();
    return {
      [Symbol.dispose]: () => {
        if (entry.cancelled) return;
        entry.cancelled = true;
        this.#entries = this.#entries.filter((e) => e !== entry);
        if (this.#entries.length === 0) this.#disarm();
      },
    };
  }

  /** Runs `fn` at a grid point every `ms` (rounded up to the grid) until disposed. */
  every(ms: number, fn: () => void): Disposable {
    let next: Disposable;
    let stopped = false;
    const run = () => {
      next = this.after(ms, run);
      fn();
    };
    next = this.after(ms, run);
    return {
      [Symbol.dispose]: () => {
        if (stopped) return;
        stopped = true;
        next[Symbol.dispose]();
      },
    };
  }

  /** How many callbacks wait (tests). */
  get pending(): number {
    return this.#entries.length;
  }

  #arm(): void {
    this.#disarm();
    if (this.#entries.length === 0) return;
    const at = Math.min(...this.#entries.map((e) => e.at));
    this.#armedAt = at;
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, Math.ceil(at - this.#now())));
  }

  #disarm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedAt = Infinity;
  }

  #fire(): void {
    this.#timer = undefined;
    this.#armedAt = Infinity;
    this.wakeups++;
    // A timer may fire a fraction of a millisecond before the grid point.
    const now = this.#now() + 1;
    const due = this.#entries.filter((e) => e.at <= now).sort((a, b) => a.at - b.at);
    this.#entries = this.#entries.filter((e) => e.at > now);
    this.#settling = true;
    for (const entry of due) {
      entry.cancelled = true;
      try {
        entry.fn();
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
    // Promise continuations of the callbacks (the PTY reactor's batch read)
    // were queued before this and run first.
    queueMicrotask(() => {
      this.#settling = false;
      this.#arm();
    });
  }
}

/** The process's grid: share it, or the wake-ups do not coalesce. */
export const ticker: Ticker = new Ticker();
