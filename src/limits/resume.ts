/**
 * Resuming a session at its usage limit's reset (docs/limits.md), as a pure
 * state machine on an injected clock: one `ResumeState` per session, events
 * in, at most one action out. The runtime feeds it the session's status, the
 * user's keys and the clock; it performs what `step` asks — a notification,
 * or typing the continue text after re-reading the screen — and reports the
 * outcome back (`typed`, `recheck-failed`).
 *
 * The rules:
 * - `off`: nothing. `ask`: at the reset, one notification with a one-key
 *   resume; the key (`confirm`) resumes. `auto`: at the reset (plus marginFor),
 *   resume.
 * - An agent that continues by itself (Claude's "set to continue
 *   automatically") is only watched: nothing is typed, whatever the policy.
 * - Never before `resetsAt + marginFor(resetsAt)`; never while the user typed in the
 *   last QUIET_MS; never twice for one limit (a limit is its reset instant and
 *   its message); the executor re-reads the screen and types only if the
 *   same limit is still shown (`recheck-failed` otherwise: nothing typed).
 * - A limit that comes back after a resume waits for its new time; one with
 *   no time, or a time already past, waits BACKOFF_MS times the failures. After
 *   MAX_FAILURES resumes that did not hold it stops and says so.
 * - `cancel` (a key, `ctl`) stops it for this limit.
 */

export type ResumePolicy = "off" | "ask" | "auto";

export const RESUME_POLICIES: readonly ResumePolicy[] = ["off", "ask", "auto"];

/** After the reset, before typing: the reset printed to the minute may be a little late. */
export const MARGIN_MS = 15_000;
/**
 * A reset on a whole minute was printed to the minute: the true one may be up to 59 s
 * later (codex-fail-limit: "try again at 8:28 PM" for a reset at 20:28:59).
 */
export const MINUTE_SLACK_MS = 60_000;

/** How long after `resetsAt` to act: the margin, plus a minute for a time printed to the minute. */
export function marginFor(resetsAt: number | null): number {
  return resetsAt !== null && resetsAt % 60_000 === 0 ? MARGIN_MS + MINUTE_SLACK_MS : MARGIN_MS;
}
/** No typing within this long after the user's last key in the session. */
export const QUIET_MS = 10_000;
/** A limit with no usable time, after a failed resume: wait this long times the failures. */
export const BACKOFF_MS = 5 * 60_000;
/** Resumes that did not hold (the limit came back) before giving up. */
export const MAX_FAILURES = 3;
/** A limit back within this long after the last one went did not hold: a failure. */
export const HOLD_MS = 10 * 60_000;
/** A restored agent not back at its prompt yet: look again this long after. */
export const NOT_READY_RETRY_MS = 5_000;
/** … at most this many times (two minutes). */
export const NOT_READY_TRIES = 24;
/** Typed, and the same limit still shown this long after: the resume did not take. */
export const NO_EFFECT_MS = 60_000;

/** One limit as seen on screen. */
export interface LimitSeen {
  /** Epoch ms, or null when the agent wrote no time we could read. */
  readonly resetsAt: number | null;
  readonly msg: string | null;
  /** The agent continues by itself at the reset: lazyshell types nothing. */
  readonly selfContinues: boolean;
}

export type Phase =
  /** No limit. */
  | "none"
  /** A limit, waiting for its time. */
  | "waiting"
  /** `ask`: notified, waiting for the user's key. */
  | "asked"
  /** `auto` (or the key): the executor was asked to type; waiting for its outcome. */
  | "typing"
  /** Typed: waiting to see the limit go (or come back). */
  | "resumed"
  /** The agent continues by itself: watched, nothing typed. */
  | "watching"
  /** Stopped: cancelled, given up, or nothing more to do for this limit. */
  | "stopped";

export interface ResumeState {
  readonly phase: Phase;
  /** The limit being handled (null in `none`). */
  readonly limit: LimitSeen | null;
  /** When to act (epoch ms), in `waiting`. */
  readonly dueAt: number | null;
  /** Resumes that did not hold, for this run of limits. */
  readonly failures: number;
  /** Keys of the limits already resumed (never twice for one). */
  readonly done: readonly string[];
  /** The user's last key in the session. */
  readonly typedAt: number | null;
  /** When the continue text was typed (in `resumed`). */
  readonly resumedAt: number | null;
  /** When the last resumed limit went (a limit back soon after did not hold). */
  readonly clearedAt: number | null;
  /** Re-checks that found a restored agent not back at its prompt yet. */
  readonly notReady?: number;
  /** Why it stopped, for the list and `ctl` (null unless stopped). */
  readonly reason: string | null;
}

export const INITIAL: ResumeState = {
  phase: "none",
  limit: null,
  dueAt: null,
  failures: 0,
  done: [],
  typedAt: null,
  resumedAt: null,
  clearedAt: null,
  reason: null,
};

export type ResumeEvent =
  /** The session's status is a usage limit (sent at every status change while it is). */
  | { readonly type: "limit"; readonly limit: LimitSeen }
  /** The status is no longer a limit (working, idle, done, another error, exited). */
  | { readonly type: "cleared" }
  /** The user typed in the session. */
  | { readonly type: "typed" }
  /** The `ask` key: resume now (still after the reset, still re-checked). */
  | { readonly type: "confirm" }
  /** Stop for this limit (a key, `ctl`). */
  | { readonly type: "cancel" }
  /** The executor typed the continue text (after its re-check). */
  | { readonly type: "typed-continue" }
  /** The executor found a restored agent not at its prompt yet: nothing typed, look again. */
  | { readonly type: "not-ready" }
  /** The executor's re-check found something else on screen: nothing typed. */
  | { readonly type: "recheck-failed"; readonly why: string }
  /** Time passed. */
  | { readonly type: "tick" };

export type ResumeAction =
  | { readonly type: "ask"; readonly text: string }
  /** Re-read the screen; if `limitKey` is still shown and the input is empty, type. */
  | { readonly type: "resume"; readonly limitKey: string }
  /** Tell the user it stopped (gave up after failures). */
  | { readonly type: "notice"; readonly text: string };

export interface StepResult {
  readonly state: ResumeState;
  readonly action: ResumeAction | null;
}

/** A limit's identity: its reset instant and its message. */
export function limitKey(limit: LimitSeen): string {
  return `${limit.resetsAt ?? "?"}|${limit.msg ?? ""}`;
}

/** When a limit should be acted on, given the failures so far. */
function dueOf(limit: LimitSeen, failures: number, now: number): number {
  const at = limit.resetsAt;
  if (at !== null && at > now) return at + marginFor(at);
  // No time, or a time already past (it was wrong, or read late).
  return failures === 0 && at !== null
    ? Math.max(now + MARGIN_MS, at + marginFor(at))
    : now + BACKOFF_MS * Math.max(1, failures);
}

/**
 * One event in. `policy` is the session's current one (it may change at any
 * time: `off` stops acting, the state is kept).
 */
export function step(
  s: ResumeState,
  e: ResumeEvent,
  now: number,
  policy: ResumePolicy,
): StepResult {
  const keep = (state: ResumeState, action: ResumeAction | null = null) => ({ state, action });
  switch (e.type) {
    case "typed":
      return keep({ ...s, typedAt: now });
    case "cancel":
      return s.phase === "none" ? keep(s) : keep({
        ...s,
        phase: "stopped",
        dueAt: null,
        done: s.limit ? remember(s.done, limitKey(s.limit)) : s.done,
        reason: "cancelled",
      });
    case "cleared":
      // The limit went: after a resume it held (for now); after the agent's own, too.
      if (s.phase === "none") return keep(s);
      return keep({
        ...s,
        phase: "none",
        limit: null,
        dueAt: null,
        reason: null,
        resumedAt: null,
        // After a resume: a limit back within HOLD_MS is a failure of it ("limit" below).
        clearedAt: s.phase === "resumed" ? now : null,
      });
    case "limit":
      return onLimit(s, e.limit, now, policy);
    case "confirm":
      if (s.phase !== "asked" && s.phase !== "waiting") return keep(s);
      if (s.limit === null || !timeReached(s.limit, now)) return keep(s);
      return keep({ ...s, phase: "typing" }, { type: "resume", limitKey: limitKey(s.limit) });
    case "typed-continue":
      if (s.phase !== "typing" || s.limit === null) return keep(s);
      return keep({
        ...s,
        phase: "resumed",
        dueAt: null,
        resumedAt: now,
        done: remember(s.done, limitKey(s.limit)),
      });
    case "not-ready": {
      if (s.phase !== "typing") return keep(s);
      const notReady = (s.notReady ?? 0) + 1;
      if (notReady >= NOT_READY_TRIES) {
        const reason = "the restored agent did not come back to its prompt: not resumed";
        return keep({ ...s, phase: "stopped", notReady, reason }, { type: "notice", text: reason });
      }
      return keep({ ...s, phase: "waiting", dueAt: now + NOT_READY_RETRY_MS, notReady });
    }
    case "recheck-failed":
      // Nothing typed: the screen moved on (the agent resumed, the user acted). Not again.
      if (s.phase !== "typing" || s.limit === null) return keep(s);
      return keep({
        ...s,
        phase: "stopped",
        done: remember(s.done, limitKey(s.limit)),
        reason: `not resumed: ${e.why}`,
      });
    case "tick":
      return onTick(s, now, policy);
  }
}

function onLimit(s: ResumeState, limit: LimitSeen, now: number, policy: ResumePolicy): StepResult {
  const key = limitKey(limit);
  const same = s.limit !== null && limitKey(s.limit) === key;
  // Watched, and the agent's own continue was cancelled (Claude's Esc): the policy applies now.
  const uncontinued = s.phase === "watching" && !limit.selfContinues;
  if (same && s.phase !== "none" && !uncontinued) return { state: s, action: null };
  if (s.done.includes(key)) {
    // Already resumed (or cancelled) for this very limit: never twice.
    return {
      state: { ...s, phase: "stopped", limit, dueAt: null, reason: s.reason ?? "already resumed" },
      action: null,
    };
  }
  if (limit.selfContinues) {
    return {
      state: { ...s, phase: "watching", limit, dueAt: null, reason: null },
      action: null,
    };
  }
  // A limit back after a resume (still resumed, or soon after it went): it did not hold.
  const back = s.phase === "resumed" ||
    (s.phase === "none" && s.clearedAt !== null && now - s.clearedAt < HOLD_MS);
  const failures = back ? s.failures + 1 : s.phase === "none" ? 0 : s.failures;
  if (failures >= MAX_FAILURES) {
    const reason = `still limited after ${failures} resumes: stopped`;
    return {
      state: { ...s, phase: "stopped", limit, dueAt: null, failures, reason },
      action: policy === "off" ? null : { type: "notice", text: reason },
    };
  }
  return {
    state: {
      ...s,
      phase: "waiting",
      limit,
      dueAt: dueOf(limit, failures, now),
      failures,
      resumedAt: null,
      clearedAt: null,
      reason: null,
    },
    action: null,
  };
}

function onTick(s: ResumeState, now: number, policy: ResumePolicy): StepResult {
  if (s.phase === "resumed" && s.resumedAt !== null && now - s.resumedAt >= NO_EFFECT_MS) {
    // Typed, and the very limit is still shown: the agent did not take it. Never again.
    const reason = "typed the continue text, the limit is still shown: stopped";
    return {
      state: { ...s, phase: "stopped", resumedAt: null, reason },
      action: { type: "notice", text: reason },
    };
  }
  if (s.phase !== "waiting" || s.limit === null || s.dueAt === null) {
    return { state: s, action: null };
  }
  if (policy === "off" || now < s.dueAt) return { state: s, action: null };
  if (s.typedAt !== null && now - s.typedAt < QUIET_MS) return { state: s, action: null };
  if (policy === "ask") {
    return {
      state: { ...s, phase: "asked" },
      action: { type: "ask", text: "limit reset: resume?" },
    };
  }
  return {
    state: { ...s, phase: "typing" },
    action: { type: "resume", limitKey: limitKey(s.limit) },
  };
}

/** Whether the reset (plus the margin) has passed: the `ask` key does not resume early. */
function timeReached(limit: LimitSeen, now: number): boolean {
  return limit.resetsAt === null || now >= limit.resetsAt + marginFor(limit.resetsAt);
}

/** The last few limit keys (bounded: a session runs for weeks). */
function remember(done: readonly string[], key: string): readonly string[] {
  return done.includes(key) ? done : [...done, key].slice(-16);
}

/**
 * When the machine next needs a tick (epoch ms), or null. Under `off` a waiting limit
 * needs none: a tick past its time would do nothing, again and again (a policy set
 * later ticks it).
 */
export function nextDue(s: ResumeState, policy: ResumePolicy = "auto"): number | null {
  if (s.phase === "resumed" && s.resumedAt !== null) return s.resumedAt + NO_EFFECT_MS;
  if (s.phase !== "waiting" || s.dueAt === null || policy === "off") return null;
  return s.typedAt === null ? s.dueAt : Math.max(s.dueAt, s.typedAt + QUIET_MS);
}

/** The state file's form (docs/limits.md, "Across restarts"): plain JSON. */
export function toJson(s: ResumeState): unknown {
  // A resume being typed when the server died is unknown: re-checked as waiting on restore.
  const phase = s.phase === "typing" || s.phase === "asked" ? "waiting" : s.phase;
  return { ...s, phase, typedAt: null, resumedAt: null };
}

/** Back from the state file; null when it is not one (a clear error is the caller's). */
export function fromJson(v: unknown): ResumeState | null {
  if (v === null || typeof v !== "object") return null;
  const o = v as Record<string, unknown>;
  const phases: readonly Phase[] = [
    "none",
    "waiting",
    "asked",
    "typing",
    "resumed",
    "watching",
    "stopped",
  ];
  if (!phases.includes(o.phase as Phase)) return null;
  const num = (x: unknown) => typeof x === "number" && Number.isFinite(x) ? x : null;
  const l = o.limit as Record<string, unknown> | null;
  const limit: LimitSeen | null = l && typeof l === "object"
    ? {
      resetsAt: num(l.resetsAt),
      msg: typeof l.msg === "string" ? l.msg : null,
      selfContinues: l.selfContinues === true,
    }
    : null;
  return {
    phase: o.phase as Phase,
    limit,
    dueAt: num(o.dueAt),
    failures: num(o.failures) ?? 0,
    done: Array.isArray(o.done) ? o.done.filter((k): k is string => typeof k === "string") : [],
    typedAt: null,
    resumedAt: null,
    clearedAt: num(o.clearedAt),
    reason: typeof o.reason === "string" ? o.reason : null,
  };
}
