/**
 * Turn durations (SPEC A2, W3), pure: a turn starts when the arbiter moves
 * a session into `working` and ends when it moves out of it. The TUI shows
 * the running turn (`⏱ 1m32s`), the stats tab the last one and the count.
 * Time is passed in (epoch ms).
 */

import type { AgentStatus } from "../model/agent.ts";

export interface TurnInfo {
  /** A turn is running. */
  readonly working: boolean;
  /** Duration of the running turn so far, in ms, or null. */
  readonly current: number | null;
  /** Duration of the last finished turn, in ms, or null. */
  readonly last: number | null;
  /** Turns started so far. */
  readonly count: number;
}

interface Turns {
  start: number | null;
  last: number | null;
  count: number;
}

export class TurnTracker {
  #sessions = new Map<string, Turns>();

  /** An arbiter transition of session `id`. */
  transition(id: string, status: AgentStatus, previous: AgentStatus | null, now: number): void {
    const was = previous?.state === "working";
    const is = status.state === "working";
    if (was === is) return;
    const t = this.#sessions.get(id) ?? { start: null, last: null, count: 0 };
    this.#sessions.set(id, t);
    if (is) {
      t.start = Math.min(status.since || now, now);
      t.count++;
    } else if (t.start !== null) {
      t.last = Math.max(0, (status.since || now) - t.start);
      t.start = null;
    }
  }

  /** The session ended: a running turn ends with it. */
  ended(id: string, now: number): void {
    const t = this.#sessions.get(id);
    if (t?.start != null) {
      t.last = Math.max(0, now - t.start);
      t.start = null;
    }
  }

  forget(id: string): void {
    this.#sessions.delete(id);
  }

  turn(id: string, now: number): TurnInfo {
    const t = this.#sessions.get(id);
    if (!t) return { working: false, current: null, last: null, count: 0 };
    return {
      working: t.start !== null,
      current: t.start === null ? null : Math.max(0, now - t.start),
      last: t.last,
      count: t.count,
    };
  }
}

/** `⏱ 1m32s` style: `45s`, `1m32s`, `2h05m`. */
export function formatDuration(ms: number): string {
  const s = Math.floor(Math.max(0, ms) / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}
