/**
 * The main thread's share for floods (tools/abuse item 04: 16 sessions each printing
 * 30 MB held `ctl list` up to 9 s). Every flooding session's bytes are
 * parsed on the one JavaScript thread; a turn of the event loop that parses
 * them all leaves the control socket, the hook sockets and the TUI's keys
 * waiting for the next turn. So flood readers spend one shared budget:
 * after SLICE_MS of flood work the next piece waits for a fresh turn of the
 * event loop (a zero-delay timer: I/O that became ready meanwhile — a
 * request, a key — is served first), and every reader waits on the same
 * turn, so 16 floods yield as often as one does. A request being answered
 * holds the floods (hold(): at most HOLD_MS), so the turns it needs are
 * short ones.
 */

/** Flood work per event-loop turn, in ms: what anything else may wait behind one turn. */
export const SLICE_MS = 12;
/** Longest a hold stops the floods (a request answered late must not stop them for long). */
export const HOLD_MS = 100;

export class FloodBudget {
  #spent = 0;
  #turn: Promise<void> | null = null;
  #holds = 0;
  #depth = 0;
  #released: Array<() => void> = [];

  constructor(private readonly sliceMs = SLICE_MS) {}

  /**
   * Resolves when a flood may do more work; null (go on at once) while this
   * turn's budget lasts and nothing holds the floods.
   */
  ready(): Promise<void> | null {
    if (this.#holds > 0) {
      return new Promise<void>((resolve) => this.#released.push(resolve)).then(() =>
        this.ready() ?? undefined
      );
    }
    if (this.#spent < this.sliceMs) return null;
    return this.#turn ??= new Promise<void>((resolve) =>
      setTimeout(() => {
        this.#spent = 0;
        this.#turn = null;
        resolve();
      }, 0)
    );
  }

  /** Runs one piece of flood work and counts its time (a piece within a piece counts once). */
  spend(work: () => void): void {
    if (this.#depth > 0) return work();
    const t0 = performance.now();
    this.#depth++;
    try {
      work();
    } finally {
      this.#depth--;
      this.#spent += performance.now() - t0;
    }
  }

  /** Stops flood work until the returned function is called, or `ms` passed. */
  hold(ms = HOLD_MS): () => void {
    this.#holds++;
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      clearTimeout(timer);
      if (--this.#holds > 0) return;
      for (const resume of this.#released.splice(0)) resume();
    };
    const timer = setTimeout(release, ms);
    return release;
  }
}

/** The process's budget: every PTY reader of the process shares it. */
export const floodBudget = new FloodBudget();

/** Holds every flood while something a person or a script waits on is answered. */
export function holdFloods(ms = HOLD_MS): () => void {
  return floodBudget.hold(ms);
}
