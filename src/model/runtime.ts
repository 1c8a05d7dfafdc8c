/**
 * The runtime's state (one serialisable value) and its change stream: the
 * lasting server's truth that every client, the plugin feed, the control
 * verbs, the notifications and the state file read (src/runtime/state.ts keeps it).
 */

import type { SessionView } from "./session.ts";

/** What one attached client's user looks at. */
export interface ClientFocus {
  readonly client: string;
  /** The session selected, if any. */
  readonly selected: string | null;
  /** True while keys go to that session's PTY (terminal mode). */
  readonly terminal: boolean;
}

/** One pattern watcher (W1–W2): the project file's, or a session's live one (`v`). */
export interface WatcherView {
  readonly session: string;
  readonly pattern: string;
  readonly source: "file" | "live";
  /** False: matches are counted, not notified. */
  readonly notify: boolean;
  readonly matches: number;
}

export interface RuntimeState {
  /** Bumped by every change: a reader that saw seq N has seen every change up to N. */
  readonly seq: number;
  /** In creation order. */
  readonly sessions: readonly SessionView[];
  /** Problems with the agent catalog (broken user manifests), one line each. */
  readonly problems: readonly string[];
  /** What each attached client looks at, the most recently active last. */
  readonly focus: readonly ClientFocus[];
  /** Every pattern watcher, by session in the order they were armed. */
  readonly watchers: readonly WatcherView[];
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
  | { readonly type: "problems"; readonly seq: number; readonly problems: readonly string[] }
  | { readonly type: "focus"; readonly seq: number; readonly focus: readonly ClientFocus[] }
  | { readonly type: "watchers"; readonly seq: number; readonly watchers: readonly WatcherView[] };

export const EMPTY_STATE: RuntimeState = {
  seq: 0,
  sessions: [],
  problems: [],
  focus: [],
  watchers: [],
};

const NO_FOCUS: ClientFocus = { client: "", selected: null, terminal: false };

/** What the most recently active client looks at (the stats command and plugins follow it). */
export function latestFocus(state: Pick<RuntimeState, "focus">): ClientFocus {
  return state.focus.at(-1) ?? NO_FOCUS;
}

/** The id of the session a change is about, or null (problems, focus, watchers). */
export function changedId(change: RuntimeChange): string | null {
  if (change.type === "removed") return change.previous.id;
  return change.type === "added" || change.type === "updated" ? change.session.id : null;
}
