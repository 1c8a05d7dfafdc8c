/**
 * The runtime's state (one serialisable value) and its change stream: the
 * lasting server's truth that every client, the plugin feed, the control
 * verbs and the notifications read (src/runtime/state.ts keeps it).
 */

import type { SessionView } from "./session.ts";

export interface RuntimeState {
  /** Bumped by every change: a reader that saw seq N has seen every change up to N. */
  readonly seq: number;
  /** In creation order. */
  readonly sessions: readonly SessionView[];
  /** Problems with the agent catalog (broken user manifests), one line each. */
  readonly problems: readonly string[];
}

/** One change, in order; `seq` is the state's seq after it. */
export type RuntimeChange =
  | { readonly type: "added"; readonly seq: number; readonly session: SessionView }
  | {
    readonly type: "updated";
    readonly seq: number;
    readonly session: SessionView;
    readonly previous: SessionView;
  }
  | { readonly type: "removed"; readonly seq: number; readonly previous: SessionView }
  | { readonly type: "problems"; readonly seq: number; readonly problems: readonly string[] };

export const EMPTY_STATE: RuntimeState = { seq: 0, sessions: [], problems: [] };
