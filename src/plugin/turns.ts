/**
 * Turn statistics per session for the stats tab (SPEC W3, P7): a turn is a
 * stretch of `working`; it ends when the state leaves `working`. Pure: the
 * caller feeds state changes with their time.
 */

export interface TurnStats {
  readonly turns: number;
  /** Epoch ms the current turn began, null when not working. */
  readonly turnStartedAt: number | null;
  readonly lastTurnMs: number | null;
}

const EMPTY: TurnStats = { turns: 0, turnStartedAt: null, lastTurnMs: null };

export class TurnTracker {
  #stats = new Map<string, TurnStats>();

  /** Records that `session` is now in `state` since `at` (epoch ms). */
  update(session: string, state: string | null, at: number): void {
    const s = this.get(session);
    if (state === "working") {
      if (s.turnStartedAt === null) this.#stats.set(session, { ...s, turnStartedAt: at });
      return;
    }
    if (s.turnStartedAt !== null) {
      this.#stats.set(session, {
        turns: s.turns + 1,
        turnStartedAt: null,
        lastTurnMs: Math.max(0, at - s.turnStartedAt),
      });
    }
  }

  get(session: string): TurnStats {
    return this.#stats.get(session) ?? EMPTY;
  }

  remove(session: string): void {
    this.#stats.delete(session);
  }
}
