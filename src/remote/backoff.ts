/**
 * When to try a host again after it could not be reached (docs/remote.md,
 * "Hosts down"): doubling from `base`, at most `cap`, with up to a quarter
 * less taken at random so that many clients retrying one host spread out.
 * Pure (`random` is given).
 */

export interface Backoff {
  readonly base: number;
  readonly cap: number;
}

export const HOST_BACKOFF: Backoff = { base: 500, cap: 30_000 };

/** The wait before try `attempt + 1`, after `attempt` failed tries (1 = the first failed). */
export function retryDelay(attempt: number, backoff: Backoff, random: number): number {
  const full = Math.min(backoff.cap, backoff.base * 2 ** Math.max(0, attempt - 1));
  return Math.round(full * (1 - 0.25 * Math.min(1, Math.max(0, random))));
}
