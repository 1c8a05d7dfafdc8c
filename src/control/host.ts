/**
 * What the control verbs may touch: the session store, the agent states
 * (the DetectionHub of src/runtime/detection.ts, structurally), and session
 * creation through the runtime (which never moves the user's focus: `ctl
 * new` does not steal selection or keyboard, C2). control/ never imports
 * app/; the app passes these in.
 */

import type { AgentStatus } from "../model/agent.ts";
import type { SessionInfo } from "../model/session.ts";
import type { Session } from "../session/session.ts";
import type { SessionSpec, SessionStore } from "../session/store.ts";

export type StateEvent =
  | {
    readonly type: "state";
    readonly id: string;
    readonly status: AgentStatus;
    readonly previous: AgentStatus | null;
  }
  | { readonly type: "agent"; readonly id: string; readonly agent: string | null };

/** The part of DetectionHub the control API reads. */
export interface StateSource {
  status(id: string): AgentStatus | null;
  agent(id: string): string | null;
  /** Re-classifies the session from a fresh snapshot now (D7: right before typing). */
  classifyNow(id: string): unknown;
  on(listener: (event: StateEvent) => void): Disposable;
}

export interface ControlHost {
  readonly store: SessionStore;
  /** Null until detection is wired: every agent state reads as unknown. */
  readonly states: StateSource | null;
  /** Creates a session without touching focus. */
  createSession(spec: SessionSpec): Session;
  info(session: Session): SessionInfo;
}
