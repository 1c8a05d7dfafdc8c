/**
 * The watcher's state of one host (docs/remote.md, "Hosts watched"), pure:
 * connecting → up (listed) → down (failed: retried after a backoff, 1 s
 * doubling to 60 s, up to a quarter less at random) → connecting … The I/O
 * is host_watcher.ts; time and chance are given.
 */

import type { HostView, RemoteSession } from "../model/hosts.ts";
import { type Backoff, retryDelay } from "./backoff.ts";

export const WATCH_BACKOFF: Backoff = { base: 1000, cap: 60_000 };
/**
 * Up this long before it failed: the failures start over (the next try after 1 s). Shorter (a
 * host that lists, then drops, again and again): they go on counting, the waits growing.
 */
export const STABLE_MS = 30_000;

export function initialHost(name: string): HostView {
  return {
    name,
    phase: "connecting",
    error: null,
    tries: 0,
    upSince: null,
    retryAt: null,
    sessions: [],
    listedAt: null,
  };
}

/** A try starts (first, or after the wait). */
export function connecting(h: HostView): HostView {
  return { ...h, phase: "connecting", retryAt: null };
}

/** The host listed its sessions: up (since its first list on this connection). */
export function listed(h: HostView, sessions: readonly RemoteSession[], now: number): HostView {
  const upSince = h.phase === "up" ? h.upSince : now;
  return { ...h, phase: "up", error: null, upSince, retryAt: null, sessions, listedAt: now };
}

/** A try failed or the link dropped: down until `retryAt`. */
export function failed(
  h: HostView,
  error: string,
  now: number,
  random: number,
  backoff: Backoff = WATCH_BACKOFF,
): HostView {
  const stable = h.upSince !== null && now - h.upSince >= STABLE_MS;
  const tries = (stable ? 0 : h.tries) + 1;
  const retryAt = now + retryDelay(tries, backoff, random);
  return { ...h, phase: "down", error, tries, upSince: null, retryAt };
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
