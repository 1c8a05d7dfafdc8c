/**
 * The timings of the one escalation that ends a process and what it
 * started (util/escalate.ts runs it; the plugin lifecycle follows the same
 * steps with stdin EOF as its polite step). Data only: pure layers use it.
 */

/** After the polite step (SIGHUP, a plugin's stdin EOF): time to save and exit. */
export const HANGUP_MS = 1000;
/** After SIGTERM, before SIGKILL. */
export const TERM_MS = 2000;
/** After SIGKILL: time for the exits to be seen. */
export const KILL_MS = 2000;

export type TeardownSignal = "SIGHUP" | "SIGTERM" | "SIGKILL";

export interface Step {
  readonly signal: TeardownSignal;
  readonly graceMs: number;
}

/** SIGHUP (the terminal closed), SIGTERM, SIGKILL: HANGUP_MS + TERM_MS + KILL_MS at most. */
export const ESCALATION: readonly Step[] = [
  { signal: "SIGHUP", graceMs: HANGUP_MS },
  { signal: "SIGTERM", graceMs: TERM_MS },
  { signal: "SIGKILL", graceMs: KILL_MS },
];

/** From SIGTERM on: for processes whose polite step is not a signal (stdin EOF). */
export const FROM_TERM: readonly Step[] = ESCALATION.slice(1);
