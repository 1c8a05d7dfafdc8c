/**
 * The engine's own events, declared once: what the hook sockets report
 * (after interpretation) and what session detection emits. Plain data.
 */

import type { AgentStatus, StateKind } from "./agent.ts";
import type { Prompt } from "./prompt.ts";

/** States a hook may report (`error`: the turn failed, e.g. Claude Code's StopFailure). */
export const HOOK_STATES = ["idle", "working", "blocked", "done", "error"] as const;
export type HookState = typeof HOOK_STATES[number];

/** One hook event as interpreted (src/ipc/hook_mapping.ts), evidence for the arbiter. */
export interface HookEvent {
  readonly state: HookState;
  /** What a `blocked` waits for, or why an `error` failed. */
  readonly kind: StateKind | null;
  readonly msg: string | null;
  /** The agent's event name, e.g. "PermissionRequest", "Stop", "agent-turn-complete"; or `hook`. */
  readonly event: string | null;
}

/**
 * What the session detector (src/runtime/session_detector.ts) reports of one
 * session: events of the runtime's reducer (src/runtime/state.ts), emitted
 * into it as they are. `at` is the detector's clock.
 */
export type DetectionEvent =
  | {
    readonly type: "state";
    readonly id: string;
    readonly status: AgentStatus;
    readonly at: number;
  }
  /** The catalogued agent in the foreground (null: none); `hasRules` false: a dim "no status" mark. */
  | {
    readonly type: "agent";
    readonly id: string;
    readonly agent: string | null;
    readonly hasRules: boolean;
  }
  /** The program asked the OSC 7501 `?` query (it can declare its state). */
  | { readonly type: "capable"; readonly id: string }
  /** What the blocked session asks changed (null: no prompt, or not readable). */
  | { readonly type: "prompt"; readonly id: string; readonly prompt: Prompt | null };
