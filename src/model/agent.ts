/**
 * Agent state vocabulary shared by every layer (docs/detection.md).
 *
 * Plain data only: no runtime imports. `detect/` produces these values,
 * `runtime/` stores them, `tui/` and `control/` read them.
 */

export const AGENT_STATES = ["idle", "working", "blocked", "done", "error"] as const;
export type AgentStateName = typeof AGENT_STATES[number];

export const BLOCKED_KINDS = ["permission", "question", "auth"] as const;
export type BlockedKind = typeof BLOCKED_KINDS[number];

/** Why a turn failed (`error`), when known: the model API's answer. */
export const ERROR_KINDS = [
  "rate_limit",
  "overloaded",
  "auth",
  "quota",
  "connection",
  "limit",
] as const;
export type ErrorKind = typeof ERROR_KINDS[number];

/** Every kind a state may carry: blocked kinds, error kinds (`auth` is both). */
export const STATE_KINDS = [...new Set([...BLOCKED_KINDS, ...ERROR_KINDS])] as readonly (
  | BlockedKind
  | ErrorKind
)[];
export type StateKind = BlockedKind | ErrorKind;

/** Which evidence moved a state (docs/detection.md, Arbitration): strongest first. */
export const EVIDENCE_SOURCES = ["declared", "hook", "screen", "process", "input"] as const;
export type EvidenceSource = typeof EVIDENCE_SOURCES[number];

/** One arbitrated agent state; every change carries its provenance (A3). */
export interface AgentStatus {
  readonly state: AgentStateName;
  /** What a `blocked` waits for, or why an `error` failed (null: unknown / other states). */
  readonly kind: StateKind | null;
  readonly source: EvidenceSource;
  /** Manifest rule id, `fallback`, or a synthetic id such as `osc7501` / `hook:Stop`. */
  readonly ruleId: string;
  /** Monotonic per session; `ctl wait` and tests follow it. */
  readonly seq: number;
  /** Epoch ms when this state began. */
  readonly since: number;
  /** Human text for notifications (OSC 7501 `msg`, hook message), if any. */
  readonly msg: string | null;
  /**
   * A usage limit (`error`, kind `limit`): when it resets (epoch ms), as the
   * agent wrote it; null or absent when unknown (docs/limits.md).
   */
  readonly resetsAt?: number | null;
}

export function isAgentState(s: string): s is AgentStateName {
  return (AGENT_STATES as readonly string[]).includes(s);
}

export function isBlockedKind(s: string): s is BlockedKind {
  return (BLOCKED_KINDS as readonly string[]).includes(s);
}

export function isErrorKind(s: string): s is ErrorKind {
  return (ERROR_KINDS as readonly string[]).includes(s);
}

/** The kinds a state may carry: blocked and error have their own, others none. */
export function kindsOf(state: AgentStateName): readonly StateKind[] {
  return state === "blocked" ? BLOCKED_KINDS : state === "error" ? ERROR_KINDS : [];
}

/** "rate limited", "overloaded", ... : an error kind in words (list, notifications). */
export const ERROR_KIND_TEXT: Readonly<Record<ErrorKind, string>> = {
  rate_limit: "rate limited",
  overloaded: "overloaded",
  auth: "authentication failed",
  quota: "quota exceeded",
  connection: "connection lost",
  limit: "usage limit reached",
};

/**
 * Why a turn failed, in words: "rate limited (429)" from the kind and an
 * HTTP status in the message, else the message, else null (unknown).
 */
export function errorReason(kind: StateKind | null, msg: string | null): string | null {
  const text = msg?.trim() ?? "";
  if (kind !== null && isErrorKind(kind)) {
    const code = /\b([45]\d\d)\b/.exec(text)?.[1];
    return code ? `${ERROR_KIND_TEXT[kind]} (${code})` : ERROR_KIND_TEXT[kind];
  }
  return text || null;
}

/** The state markers (README, Using the TUI); `●` is the generic activity marker of a non-agent session. */
export const STATE_MARKERS: Readonly<Record<AgentStateName, string>> = {
  idle: "·",
  working: "…",
  blocked: "‼",
  done: "✓",
  error: "✗",
};
export const ACTIVITY_MARKER = "●";

/** The exact reply to `ESC ] 7501 ; ? ST` (docs/detection.md). */
export const OSC7501_QUERY_REPLY =
  "\x1b]7501;?:states=idle,working,done,blocked,error:kinds=permission,question,auth\x1b\\";

/** An agent a new session can start (`N`, `ctl new --agent`): installed ones first. */
export interface AgentChoice {
  readonly id: string;
  readonly name: string;
  readonly installed: boolean;
  /** From `--version`, when it answered. */
  readonly version: string | null;
}
