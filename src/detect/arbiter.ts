/**
 * The arbiter (docs/detection.md, Arbitration): a pure reducer folding every piece of evidence
 * about one session into one AgentStatus. Time is injected (`now`).
 *
 * Strongest first: declared (OSC 7501) > hook (latched after the first
 * event) > screen (manifest rules). Two exceptions to the latch:
 * - visible blocker: a `visible_blocker` rule on screen overrides a hook
 *   `working` that is older than BLOCKER_STALE_MS and predates the repaint
 *   showing it; it reverts when the prompt leaves the screen;
 * - interrupt: Esc / Ctrl+C typed (or sent alone by `ctl send`, which
 *   otherwise is not typing) while `working`, followed by settled output,
 *   ends the turn (`idle`, not `done`) — no hook fires on interrupt.
 * - answered prompt (the same evidence, for a hook `blocked`): keys typed
 *   after it, then a settled screen with no blocked rule, mean the user
 *   answered: Esc / Ctrl+C denied it (`idle`; Claude fires no hook on a
 *   deny, claude-deny-osc7501), anything else approved it (`working`; the
 *   next hook, PostToolUse, comes only after the tool ran).
 * Process exit and OSC 133;A clear working/blocked; done and error — declared,
 * from a hook or on screen — persist until the user types or a new turn
 * starts (error survives exit). A declared error takes the kind (and, when it
 * names none, the message) of an error rule on screen.
 */

import type { AgentStateName, AgentStatus, EvidenceSource, StateKind } from "../model/agent.ts";
import type { HookEvent } from "../model/events.ts";
import { applyRecord, onPromptOrExit, onTyped } from "./osc7501.ts";
import type { Declared, Osc7501Record } from "./osc7501.ts";
import type { RuleResult } from "./rules.ts";

export const BLOCKER_STALE_MS = 2000;
/** An interrupt still pending after this long with the screen working is forgotten. */
export const INTERRUPT_PENDING_MS = 3000;

/** A hook event (src/model/events.ts) as evidence. */
export type HookEvidence = HookEvent;

export type Evidence =
  | { readonly type: "declare"; readonly records: readonly Osc7501Record[] }
  /** OSC 133;A: the shell prompt is back. */
  | { readonly type: "prompt" }
  /** The program exited (the session's child, or the agent left the foreground). */
  | { readonly type: "exit" }
  /** A different agent (or none) holds the foreground: screen and hook evidence restart. */
  | { readonly type: "agent"; readonly agent: string | null }
  /** The user typed (not `ctl send`); `interrupt` for Esc / Ctrl+C. */
  | { readonly type: "typed"; readonly interrupt: boolean }
  /**
   * Esc / Ctrl+C sent by a script (`ctl send`): it interrupts the turn or
   * denies a prompt like a typed one, but is not the user looking (done stays).
   */
  | { readonly type: "scripted-interrupt" }
  | { readonly type: "hook"; readonly event: HookEvidence }
  /** A settled-screen classification; null when no manifest with rules applies. */
  | { readonly type: "screen"; readonly result: RuleResult | null }
  /** Re-evaluate time-dependent conditions (see nextCheckAt). */
  | { readonly type: "tick" };

interface Derived {
  readonly state: AgentStateName;
  readonly kind: StateKind | null;
  readonly source: EvidenceSource;
  readonly ruleId: string;
  readonly msg: string | null;
  /** A usage limit's reset instant (docs/limits.md); absent otherwise. */
  readonly resetsAt?: number;
}

export interface ArbiterOptions {
  /** What a screen `working` → `idle` change means (manifest `turn_end`). */
  readonly turnEnd: "idle" | "done";
}

export interface ArbiterState {
  readonly options: ArbiterOptions;
  readonly declared: Declared | null;
  readonly latched: boolean;
  /** The last hook event; `seen` once the user typed on its `done` or `error`. */
  readonly hook: (HookEvidence & { readonly at: number; readonly seen?: boolean }) | null;
  /** The raw last rule result, and when that screen was classified. */
  readonly screen: RuleResult | null;
  readonly screenAt: number;
  /** The screen's state after turn-end / sticky-done interpretation. */
  readonly screenDerived: Derived | null;
  /** When the user pressed Esc / Ctrl+C while working, until settled output judges it. */
  readonly interruptAt: number | null;
  /** The hook `working` claim was ended by an interrupt. */
  readonly interrupted: boolean;
  /** Keys typed after a hook `blocked` (and whether one was Esc / Ctrl+C), awaiting the screen. */
  readonly answeredAt: number | null;
  readonly answeredByInterrupt: boolean;
  /** What the user's answer to a hook `blocked` led to, once the prompt left the screen. */
  readonly answered: "working" | "idle" | null;
  /** What a clearing event (exit, prompt, clear) left behind. */
  readonly cleared: Derived | null;
  readonly status: AgentStatus | null;
}

export function initialState(options: ArbiterOptions = { turnEnd: "idle" }): ArbiterState {
  return {
    options,
    declared: null,
    latched: false,
    hook: null,
    screen: null,
    screenAt: 0,
    screenDerived: null,
    interruptAt: null,
    interrupted: false,
    answeredAt: null,
    answeredByInterrupt: false,
    answered: null,
    cleared: null,
    status: null,
  };
}

/**
 * Folds one piece of evidence in. `status.seq` grows by one when the state,
 * kind, source or msg changes, or when a guess (`fallback`: no rule matched)
 * becomes a rule's evidence or back — an agent's idle prompt on screen says
 * it is ready for input, an empty screen during its start-up does not
 * (src/runtime/first_prompt.ts); another rule id alone updates `ruleId` and
 * keeps seq.
 */
export function reduce(s: ArbiterState, e: Evidence, now: number): ArbiterState {
  return withStatus(apply(s, e, now), now);
}

function apply(s: ArbiterState, e: Evidence, now: number): ArbiterState {
  switch (e.type) {
    case "declare": {
      let declared = s.declared;
      for (const r of e.records) declared = applyRecord(declared, r);
      // `state=clear` ends the declaration, whatever it said (done and error too).
      const cleared: Derived = {
        state: "idle",
        kind: null,
        source: "declared",
        ruleId: "osc7501:clear",
        msg: null,
      };
      return declared === null && s.declared !== null
        ? { ...s, declared, cleared }
        : { ...s, declared };
    }
    case "prompt":
      return clearRunning(s, "process", "osc133:A");
    case "exit":
      return clearRunning(s, "process", "exit");
    case "agent":
      return {
        ...clearRunning(s, "process", "exit"),
        latched: false,
        hook: null,
        screen: null,
        screenDerived: null,
        interruptAt: null,
        interrupted: false,
      };
    case "typed": {
      const declared = onTyped(s.declared);
      const seen = (d: Derived | AgentStatus | null): Derived | null =>
        d && (d.state === "done" || d.state === "error")
          ? { state: "idle", kind: null, source: "input", ruleId: "typed", msg: null }
          : d && { state: d.state, kind: d.kind, source: d.source, ruleId: d.ruleId, msg: d.msg };
      const hook = s.hook && (s.hook.state === "done" || s.hook.state === "error")
        ? { ...s.hook, state: "idle" as const, seen: true }
        : s.hook;
      const working = s.status?.state === "working";
      const blockedHook = s.latched && s.hook?.state === "blocked" && s.answered === null;
      return {
        ...s,
        answeredAt: blockedHook ? s.answeredAt ?? now : s.answeredAt,
        answeredByInterrupt: blockedHook
          ? s.answeredByInterrupt || e.interrupt
          : s.answeredByInterrupt,
        declared,
        hook,
        screenDerived: seen(s.screenDerived),
        cleared: declared !== s.declared ? seen(s.status) : seen(s.cleared),
        interruptAt: e.interrupt && working ? now : s.interruptAt,
      };
    }
    case "scripted-interrupt": {
      const blockedHook = s.latched && s.hook?.state === "blocked" && s.answered === null;
      return {
        ...s,
        answeredAt: blockedHook ? s.answeredAt ?? now : s.answeredAt,
        answeredByInterrupt: blockedHook || s.answeredByInterrupt,
        interruptAt: s.status?.state === "working" ? now : s.interruptAt,
      };
    }
    case "hook": {
      // "Waiting for your input" after a finished (or failed) turn is not news:
      // done and error stay until the user types or a new turn starts (D5).
      const final = s.hook?.state === "done" || s.hook?.state === "error";
      if (e.event.state === "idle" && s.latched && final) return s;
      return {
        ...s,
        latched: true,
        hook: { ...e.event, at: now },
        interrupted: false,
        interruptAt: null,
        answeredAt: null,
        answeredByInterrupt: false,
        answered: null,
        cleared: null,
      };
    }
    case "screen":
      return onScreen(s, e.result, now);
    case "tick":
      return s;
  }
}

function onScreen(s: ArbiterState, r: RuleResult | null, now: number): ArbiterState {
  let { interruptAt, interrupted } = s;
  const pending = interruptAt !== null;
  if (pending && s.latched && s.hook?.state === "working" && s.hook.at < interruptAt!) {
    interrupted = true; // settled output after the user's interrupt ends the turn
    interruptAt = null;
  }
  let { answeredAt, answered } = s;
  if (
    answeredAt !== null && s.latched && s.hook?.state === "blocked" && s.hook.at <= answeredAt &&
    r !== null && r.state !== "blocked"
  ) {
    answered = s.answeredByInterrupt ? "idle" : "working"; // the prompt left after the user's keys
    answeredAt = null;
  }
  let derived: Derived | null = null;
  if (r !== null) {
    const prev = s.screenDerived;
    const same = s.screen?.ruleId === r.ruleId && s.screen.state === r.state;
    const base: Derived = {
      state: r.state,
      kind: r.kind,
      source: "screen",
      ruleId: r.ruleId,
      msg: r.msg,
      ...resetsOf(r),
    };
    if (r.state === "working" || r.state === "blocked") {
      derived = base;
      if (pending && r.state === "working" && now - interruptAt! > INTERRUPT_PENDING_MS) {
        interruptAt = null;
      }
    } else if (same && prev !== null) {
      derived = prev; // unchanged screen: keep what it meant (sticky done, or seen by typing)
    } else if (r.state === "idle" && prev?.state === "working" && !pending) {
      derived = s.options.turnEnd === "done"
        ? { ...base, state: "done", ruleId: "turn-end" }
        : base;
    } else if (r.state === "idle" && (prev?.state === "done" || prev?.state === "error")) {
      derived = prev; // done and error stay until the user types or a new turn starts
    } else {
      derived = base;
    }
    if (pending && r.state !== "working") interruptAt = null;
  }
  return {
    ...s,
    screen: r,
    screenAt: now,
    screenDerived: derived,
    interruptAt,
    interrupted,
    answeredAt,
    answered,
  };
}

function clearRunning(s: ArbiterState, source: EvidenceSource, ruleId: string): ArbiterState {
  const running = (state: string | undefined) => state === "working" || state === "blocked";
  return {
    ...s,
    declared: onPromptOrExit(s.declared),
    hook: s.hook && running(s.hook.state) ? null : s.hook,
    latched: s.hook && running(s.hook.state) ? false : s.latched,
    screenDerived: running(s.screenDerived?.state) ? null : s.screenDerived,
    interruptAt: null,
    interrupted: false,
    answeredAt: null,
    answeredByInterrupt: false,
    answered: null,
    cleared: clearedFrom(s.status, source, ruleId) ?? s.cleared,
  };
}

function clearedFrom(
  status: AgentStatus | null,
  source: EvidenceSource,
  ruleId: string,
): Derived | null {
  if (status === null) return null;
  if (status.state === "working" || status.state === "blocked") {
    return { state: "idle", kind: null, source, ruleId, msg: null };
  }
  return {
    state: status.state,
    kind: null,
    source: status.source,
    ruleId: status.ruleId,
    msg: null,
  };
}

/** The winning evidence right now. */
export function decide(s: ArbiterState, now: number): Derived | null {
  const d = s.declared;
  const sd = s.screenDerived;
  if (d?.state === "idle" && sd?.state === "error" && sd.kind === "limit") {
    // Idle at a usage limit is still the limit (docs/limits.md): Claude declares `idle` once Esc
    // cancelled its automatic continue, with the limit and its reset on screen.
    return sd;
  }
  if (d) {
    // OSC 7501 has no error kinds, and Codex declares `state=error` with no msg:
    // an error rule on screen says why.
    const why = d.state === "error" && s.screen?.state === "error" ? s.screen : null;
    const kind = d.kind ?? why?.kind ?? null;
    return {
      state: d.state,
      kind,
      source: "declared",
      ruleId: "osc7501",
      msg: d.msg ?? why?.msg ?? null,
      ...(why && kind === why.kind ? resetsOf(why) : {}),
    };
  }
  const h = s.hook;
  if (s.latched && h) {
    if (h.state === "working") {
      if (s.interrupted) {
        return { state: "idle", kind: null, source: "input", ruleId: "interrupt", msg: null };
      }
      if (blockerOverrides(s, now)) return s.screenDerived;
    }
    if (h.state === "blocked" && s.answered !== null) {
      const idle = s.answered === "idle";
      return {
        state: s.answered,
        kind: null,
        source: "input",
        ruleId: idle ? "interrupt" : "answered",
        msg: null,
      };
    }
    if (h.seen) return { state: "idle", kind: null, source: "input", ruleId: "typed", msg: null };
    // A hook's failed turn (Claude's StopFailure `rate_limit`) has no reset time: a usage limit
    // on screen says it is one, and when it resets (docs/limits.md).
    const limit = h.state === "error" && s.screen?.state === "error" && s.screen.kind === "limit"
      ? s.screen
      : null;
    return {
      state: h.state,
      kind: limit ? "limit" : h.state === "blocked" || h.state === "error" ? h.kind : null,
      source: "hook",
      ruleId: `hook:${h.event ?? h.state}`,
      msg: limit ? limit.msg ?? h.msg : h.msg,
      ...(limit ? resetsOf(limit) : {}),
    };
  }
  return s.screenDerived ?? s.cleared;
}

function blockerOverrides(s: ArbiterState, now: number): boolean {
  const h = s.hook;
  return h !== null && s.screen !== null && s.screen.visibleBlocker &&
    s.screen.state === "blocked" && h.at < s.screenAt && now - h.at >= BLOCKER_STALE_MS;
}

/**
 * When the outcome may change with no new evidence (a visible blocker
 * waiting for the hook to go stale), or null.
 */
export function nextCheckAt(s: ArbiterState, now: number): number | null {
  const h = s.hook;
  if (
    s.declared === null && s.latched && h?.state === "working" && !s.interrupted &&
    s.screen?.visibleBlocker && h.at < s.screenAt && now - h.at < BLOCKER_STALE_MS
  ) {
    return h.at + BLOCKER_STALE_MS;
  }
  return null;
}

/** A rule result's reset instant, as a Derived's optional field. */
function resetsOf(r: RuleResult): { resetsAt?: number } {
  return r.resetsAt === undefined || r.resetsAt === null ? {} : { resetsAt: r.resetsAt };
}

/** The screen rule id when no rule matched (src/detect/rules.ts). */
const FALLBACK = "fallback";

function withStatus(s: ArbiterState, now: number): ArbiterState {
  const d = decide(s, now);
  const prev = s.status;
  if (d === null) return s;
  if (
    prev && prev.state === d.state && prev.kind === d.kind && prev.source === d.source &&
    prev.msg === d.msg && (prev.resetsAt ?? null) === (d.resetsAt ?? null) &&
    (prev.ruleId === FALLBACK) === (d.ruleId === FALLBACK)
  ) {
    // Another rule (or hook event) saying the same thing is not a change: the
    // status names the current rule, but seq does not move (no churn while two
    // working rules take turns).
    return prev.ruleId === d.ruleId ? s : { ...s, status: { ...prev, ruleId: d.ruleId } };
  }
  const status: AgentStatus = {
    state: d.state,
    kind: d.kind,
    source: d.source,
    ruleId: d.ruleId,
    msg: d.msg,
    ...(d.resetsAt === undefined ? {} : { resetsAt: d.resetsAt }),
    seq: (prev?.seq ?? 0) + 1,
    since: prev && prev.state === d.state ? prev.since : now,
  };
  return { ...s, status };
}
