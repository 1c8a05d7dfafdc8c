/**
 * The watcher's state of one host (docs/remote.md, "Hosts watched"), pure:
 * connecting → up (listed) → down (failed: retried after a backoff, 1 s
 * doubling to 60 s, up to a quarter less at random) → connecting … The I/O
 * is host_watcher.ts; time and chance are given.
 */

import type { HostView, RemoteSession } from "../model/hosts.ts";
import { type Backoff, retryDelay } from "./backoff.ts";

export const WATCH_BACKOFF: Backoff = { base: 1000, cap: 60_000 };

export function initialHost(name: string): HostView {
  return {
    name,
    phase: "connecting",
    error: null,
    tries: 0,
    retryAt: null,
    sessions: [],
    listedAt: null,
  };
}

/** A try starts (first, or after the wait). */
export function connecting(h: HostView): HostView {
  return { ...h, phase: "connecting", retryAt: null };
}

/** The host listed its sessions: up, tries start over. */
export function listed(h: HostView, sessions: readonly RemoteSession[], now: number): HostView {
  return { ...h, phase: "up", error: null, tries: 0, retryAt: null, sessions, listedAt: now };
}

/** A try failed or the link dropped: down until `retryAt`. */
export function failed(
  h: HostView,
  error: string,
  now: number,
  random: number,
  backoff: Backoff = WATCH_BACKOFF,
): HostView {
  const tries = h.tries + 1;
  return { ...h, phase: "down", error, tries, retryAt: now + retryDelay(tries, backoff, random) };
}

/**
 * A session's agent state as news for the notifier: the transitions of the
 * host's list from `before` to `after` (new entries, or a state/kind/msg/seq
 * that changed). The first list of a host is not news (`before` null): what
 * was blocked before it was watched was notified by whoever watched then.
 */
export function stateChanges(
  before: readonly RemoteSession[] | null,
  after: readonly RemoteSession[],
): RemoteSession[] {
  if (before === null) return [];
  const old = new Map(before.map((s) => [s.id, s]));
  return after.filter((s) => {
    if (s.state === null) return false;
    const o = old.get(s.id);
    return !o || o.state !== s.state || o.kind !== s.kind || o.msg !== s.msg || o.seq !== s.seq;
  });
}
