/**
 * Agent state vocabulary shared by every layer (docs/detection.md).
 *
 * Plain data only: no runtime imports. `detect/` produces these values,
 * `app/` stores them, `tui/` and `control/` read them.
 */

export const AGENT_STATES = ["idle", "working", "blocked", "done", "error"] as const;
export type AgentStateName = typeof AGENT_STATES[number];

export const BLOCKED_KINDS = ["permission", "question", "auth"] as const;
export type BlockedKind = typeof BLOCKED_KINDS[number];

/** Which evidence moved a state (docs/detection.md, Arbitration): strongest first. */
export const EVIDENCE_SOURCES = ["declared", "hook", "screen", "process", "input"] as const;
export type EvidenceSource = typeof EVIDENCE_SOURCES[number];

/** One arbitrated agent state; every change carries its provenance (A3). */
export interface AgentStatus {
  readonly state: AgentStateName;
  readonly kind: BlockedKind | null;
  readonly source: EvidenceSource;
  /** Manifest rule id, `fallback`, or a synthetic id such as `osc7501` / `hook:Stop`. */
  readonly ruleId: string;
  /** Monotonic per session; `ctl wait` and tests follow it. */
  readonly seq: number;
  /** Epoch ms when this state began. */
  readonly since: number;
  /** Human text for notifications (OSC 7501 `msg`, hook message), if any. */
  readonly msg: string | null;
}

export function isAgentState(s: string): s is AgentStateName {
  return (AGENT_STATES as readonly string[]).includes(s);
}

export function isBlockedKind(s: string): s is BlockedKind {
  return (BLOCKED_KINDS as readonly string[]).includes(s);
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
