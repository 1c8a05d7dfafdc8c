/**
 * The TUI's state (docs/architecture.md, Conventions): plain, JSON-able data, one per client: its
 * own selection, tab, mode and marks, over the sessions of the runtime's
 * state (SessionView, src/model/session.ts). The reducer in
 * src/tui/core/update.ts changes it; the pure view in src/tui/core/view draws it.
 * Live things (PTYs, emulators, plugin processes, timers) live beside it
 * in the app's maps, keyed by the same ids.
 */

import type { Prompt } from "./prompt.ts";
import type { SessionView } from "./session.ts";
import type { SearchHit } from "./search.ts";
import type { AgentChoice } from "./agent.ts";
import type { HostView } from "./hosts.ts";

/** `copy`: a line cursor over the selected session's scrollback (keys of the copy scope). */
export type TuiMode = "navigation" | "terminal" | "copy";

/**
 * Copy mode (`c`, or a search with `/`): a line cursor over the selected
 * session's buffer, a selection from `anchor` to the cursor, the search.
 * Lines count up from the buffer's last row (src/model/search.ts).
 */
export interface CopyState {
  readonly id: string;
  readonly cursor: number;
  /** Where the selection started, or null: none yet. */
  readonly anchor: number | null;
  /** The oldest line when copy mode started (the cursor goes no higher). */
  readonly top: number;
  readonly search: { readonly query: string; readonly hit: SearchHit | null } | null;
}

/** The tiled view (docs/tui.md, Several at once): off, the selected + pinned sessions, or the blocked ones. */
export type TileMode = "off" | "pinned" | "blocked";

/** One saved session in the restore offer (docs/restore.md). */
export interface RestoreChoice {
  readonly name: string;
  readonly group: string | null;
  /** What restoring it does, in a few words. */
  readonly how: string;
  readonly picked: boolean;
}

export type Overlay =
  /** `top`: the first key row shown when the list is taller than the screen. */
  | { readonly type: "help"; readonly top?: number }
  | { readonly type: "palette"; readonly query: string; readonly index: number }
  | {
    readonly type: "input";
    readonly purpose: "rename" | "watch" | "search";
    readonly target: string;
    readonly text: string;
  }
  | { readonly type: "confirm-quit"; readonly running: number }
  /** `o`: answer a blocked session's prompt, as read when the overlay opened (`prompt`). */
  | { readonly type: "answer"; readonly target: string; readonly prompt: Prompt }
  /** `I`: every blocked session with its question; `index` is the highlighted one. */
  | { readonly type: "inbox"; readonly index: number }
  /**
   * `x` (or `W`, the palette's `restart-group`: `restart`) on a session running an agent or a
   * program: say what ends, ask.
   */
  | {
    readonly type: "confirm-kill";
    readonly target: string;
    readonly what: string;
    readonly restart?: boolean;
    /** The palette's `restart-group`: every session of the group, restarted on `y`. */
    readonly ids?: readonly string[];
  }
  | { readonly type: "restart-choice"; readonly target: string; readonly group: string }
  /** `P`: the resume policy at usage limits of the session, or (`g`) of its group. */
  | {
    readonly type: "limit-policy";
    readonly target: string;
    readonly name: string;
    readonly group: string | null;
    readonly scope: "session" | "group";
  }
  /**
   * `x` on a session in a worktree lazyshell made: keep the worktree, remove it, or remove it
   * and its branch (docs/changes.md); `running`: the session is ended first.
   */
  | {
    readonly type: "worktree-choice";
    readonly target: string;
    readonly name: string;
    readonly branch: string;
    readonly running: boolean;
  }
  /** Sessions an earlier server saved: restore all, none, or pick (`R`, and on attach). */
  | {
    readonly type: "restore";
    readonly items: readonly RestoreChoice[];
    readonly index: number;
    /** The state file was damaged: what was set aside, one line. */
    readonly problem: string | null;
    /**
     * A key the offer does not take was typed (someone typing a command, unaware of the box):
     * until an arrow key, only esc and the arrows act (docs/restore.md).
     */
    readonly typed?: boolean;
    /** `N` asked whether to forget every saved session for good: `y` does, any other key not. */
    readonly forgetting?: boolean;
  }
  | NewAgentForm;

/** `N`: a new agent session — which agent, where, its first prompt, its name, a new worktree. */
export interface NewAgentForm {
  readonly type: "new-agent";
  /** The catalog's agents, installed ones first; null while they are being looked for. */
  readonly agents: readonly AgentChoice[] | null;
  /** The chosen agent's id. */
  readonly agent: string | null;
  readonly folder: string;
  readonly prompt: string;
  /** Empty: named after the prompt's first words. */
  readonly name: string;
  readonly worktree: boolean;
  /** Config `worktrees.branch_prefix` (the form shows the branch it would make). */
  readonly branchPrefix: string;
  readonly field: NewAgentField;
}

export const NEW_AGENT_FIELDS = ["agent", "folder", "prompt", "name", "worktree"] as const;
export type NewAgentField = typeof NEW_AGENT_FIELDS[number];

export interface TabInfo {
  /** The plugin id (palette commands read `<id> <name>`, P3). */
  readonly id?: string;
  readonly title: string;
  /** The tab wants global keys too (plugin frame `capturing: true`, P3). */
  readonly capturing: boolean;
  /** Palette commands of the tab (`:name`). */
  readonly commands: readonly { readonly name: string; readonly help: string }[];
}

export interface TuiState {
  readonly cols: number;
  readonly rows: number;
  /** In creation order; the list view groups and orders them. */
  readonly sessions: readonly SessionView[];
  readonly selected: string | null;
  readonly mode: TuiMode;
  /** 0 is the Sessions tab; 1.. are plugin tabs. */
  readonly tab: number;
  readonly tabs: readonly TabInfo[];
  readonly overlay: Overlay | null;
  readonly message: { readonly text: string; readonly error: boolean } | null;
  /** Sessions that finished a turn the user has not looked at yet: ✓ stays. */
  readonly unseenDone: Readonly<Record<string, true>>;
  /** Plain sessions with output since the user last looked: ●. */
  readonly activity: Readonly<Record<string, true>>;
  /** Scrollback offset (lines up from the bottom) per session. */
  readonly scroll: Readonly<Record<string, number>>;
  /** Copy mode's cursor, selection and search (mode `copy`), or null. */
  readonly copy: CopyState | null;
  /** Epoch ms of the last clock tick (durations). */
  readonly now: number;
  /** Animation frame counter of the one shared clock (T3). */
  readonly spin: number;
  readonly reduceMotion: boolean;
  /** Which sessions the Sessions tab tiles (src/tui/core/view/tiles_layout.ts). */
  readonly tiles: TileMode;
  /** Sessions pinned to the tiled view (`p`), in pin order. */
  readonly pinned: readonly string[];
  /** The focused tile fills the whole pane (`z`). */
  readonly zoomed: boolean;
  /** Other hosts the server watches, with their sessions (docs/remote.md), in config order. */
  readonly hosts: readonly HostView[];
  /**
   * The remote row selected (`remoteKey(host, id)`), or null: the selection is `selected`'s.
   * `selected` stays a local session meanwhile (what j/k come back to).
   */
  readonly remote: string | null;
}

export function initialTuiState(
  cols: number,
  rows: number,
  now: number,
  reduceMotion = false,
): TuiState {
  return {
    cols,
    rows,
    sessions: [],
    selected: null,
    mode: "navigation",
    tab: 0,
    tabs: [],
    overlay: null,
    message: null,
    unseenDone: {},
    activity: {},
    scroll: {},
    copy: null,
    now,
    spin: 0,
    reduceMotion,
    tiles: "off",
    pinned: [],
    zoomed: false,
    hosts: [],
    remote: null,
  };
}
