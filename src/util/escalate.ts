/**
 * The one way lazyshell ends a process and what it started — a session at
 * quit, `ctl kill` or restart, a command a plugin runs: the steps of
 * model/teardown.ts (SIGHUP, SIGTERM, SIGKILL), each given its grace to
 * work, done as soon as nothing is left, bounded in total. What each step
 * reaches is the target's to say (Session.signalAll: the whole terminal
 * session; a plugin command: its process group). docs/control-api.md,
 * "Processes and teardown".
 */

import { ESCALATION, type Step, type TeardownSignal } from "../model/teardown.ts";

/** How often `alive()` is asked during a grace. */
const POLL_MS = 20;

export interface Doomed {
  /** Sends `signal` to everything this target covers; never throws. */
  signal(signal: TeardownSignal): void;
  /** True while anything it covers is still running. */
  alive(): boolean;
}

/** Runs the steps until nothing is alive; true then, false if something outlived them all. */
export async function escalate(
  target: Doomed,
  steps: readonly Step[] = ESCALATION,
): Promise<boolean> {
  for (const step of steps) {
    if (!target.alive()) return true;
    target.signal(step.signal);
    if (await gone(target, step.graceMs)) return true;
  }
  return !target.alive();
}

/** Polls `alive()` for up to `ms`; true once it says no. */
async function gone(target: Doomed, ms: number): Promise<boolean> {
  const until = performance.now() + ms;
  while (target.alive()) {
    const left = until - performance.now();
    if (left <= 0) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, left)));
  }
  return true;
}
