/**
 * Fault isolation (docs/architecture.md, "A failure ends its owner, never its
 * neighbours"): every entry point of the server — a client's input and
 * frames, a session's output and its listeners, a plugin's message, a
 * control or hook connection, a timer — runs its work for an **owner**. A
 * throw there stops at the entry point: it is logged with its stack (the
 * server sends it to crash.log, util/crash_log.ts), the owner is reset or
 * dropped (`Owner.fault`), and the caller, its other listeners and every
 * session go on.
 *
 * `guard(owner, where, fn)` for a call, `guarded(...)` for a callback handed
 * to a timer or an emitter, `fault(owner, where, error)` in the catch of a
 * hot loop (no closure per call).
 */

import { messageOf } from "../errors.ts";

/** Whose work an entry point runs: what a failure there resets or drops. */
export interface Owner {
  /** As crash.log names it: `client-2`, `session-1`, `plugin hello`, `control read`. */
  readonly name: string;
  /**
   * Resets or drops the owner after a failure (already contained); returns
   * what it did, for the log. Absent: the owner is kept as it is.
   */
  fault?(error: unknown, where: string): string | void;
}

/** One contained failure, as the sink receives it. */
export interface FaultReport {
  readonly owner: string;
  readonly where: string;
  /** What was done about the owner (`redrawn from scratch`, `disconnected`), or null: kept. */
  readonly action: string | null;
  readonly error: unknown;
  /** The same failure (owner, where, action, message) happened this many times unlogged before it. */
  readonly repeats: number;
  /** When the first of those was (ms since the epoch), or null. */
  readonly since: number | null;
}

export type FaultSink = (report: FaultReport) => void;

/** Outside the server (tests, tools): one line on stderr. */
const STDERR_SINK: FaultSink = (r) =>
  console.error(
    `lazyshell: ${r.owner}: ${r.where} failed${r.action ? ` (${r.action})` : ""}: ${
      messageOf(r.error)
    }`,
  );

/** A failure that repeats is logged once a minute, with the count of those not logged. */
export const REPEAT_LOG_MS = 60_000;
/** At most this many different failures are counted (a bound, not a list of every message). */
const MAX_KINDS = 256;

let sink: FaultSink = STDERR_SINK;
/** Per kind of failure: when it was last logged, and the repeats since. */
const kinds = new Map<string, { logged: number; repeats: number; since: number | null }>();

/** Where contained failures go from now on (null: back to stderr). */
export function setFaultSink(next: FaultSink | null): void {
  sink = next ?? STDERR_SINK;
  kinds.clear();
}

/** Reports a failure contained at an entry point of `owner` and resets or drops the owner. */
export function fault(owner: Owner, where: string, error: unknown): void {
  let action: string | null = null;
  try {
    action = owner.fault?.(error, where) || null;
  } catch (again) {
    log(owner.name, `${where}, then resetting its owner,`, null, again);
    action = "its reset failed too";
  }
  log(owner.name, where, action, error);
}

/** Runs `fn` for `owner`: a throw is reported (fault()) and undefined returned. */
export function guard<T>(owner: Owner, where: string, fn: () => T): T | undefined {
  try {
    return fn();
  } catch (error) {
    fault(owner, where, error);
    return undefined;
  }
}

/** `fn` guarded for `owner`: for a callback handed to a timer or an emitter. */
export function guarded<A extends unknown[]>(
  owner: Owner,
  where: string,
  fn: (...args: A) => void,
): (...args: A) => void {
  return (...args) => {
    try {
      fn(...args);
    } catch (error) {
      fault(owner, where, error);
    }
  };
}

function log(owner: string, where: string, action: string | null, error: unknown): void {
  const key = `${owner}\0${where}\0${action}\0${messageOf(error)}`;
  const now = Date.now();
  const kind = kinds.get(key);
  if (kind && now - kind.logged < REPEAT_LOG_MS) {
    kind.since ??= now;
    kind.repeats++;
    return;
  }
  if (!kind && kinds.size >= MAX_KINDS) kinds.delete(kinds.keys().next().value!);
  kinds.set(key, { logged: now, repeats: 0, since: null });
  try {
    sink({
      owner,
      where,
      action,
      error,
      repeats: kind?.repeats ?? 0,
      since: kind?.since ?? null,
    });
  } catch { /* nowhere to log: the failure is still contained */ }
}
