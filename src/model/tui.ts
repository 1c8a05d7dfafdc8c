/**
 * The TUI's state (STYLE.md 2): plain, JSON-able data. The reducer in
 * src/tui/update.ts changes it; the pure view in src/tui/view draws it.
 * Live things (PTYs, emulators, plugin processes, timers) live beside it
 * in the app's maps, keyed by the same ids.
 */

import type { AgentStatus } from "./agent.ts";
import type { SessionStatus } from "./session.ts";

export type TuiMode = "navigation" | "terminal";

/** What the session list needs to know about one session. */
export interface SessionRow {
  readonly id: string;
  readonly name: string;
  readonly group: string | null;
  readonly status: SessionStatus;
  readonly exitCode: number | null;
  readonly signal: number | null;
  /** Catalog id of the foreground agent, or null for a plain session. */
  readonly agent: string | null;
  readonly agentStatus: AgentStatus | null;
  /** Whether the identified agent has detection rules (A1 "no status" otherwise). */
  readonly hasRules: boolean;
  /** First line of agent_stats_command output (W3), if any. */
  readonly stats: string | null;
}

export type Overlay =
  | { readonly type: "help" }
  | { readonly type: "palette"; readonly query: string; readonly index: number }
  | {
    readonly type: "input";
    readonly purpose: "rename" | "watch";
    readonly target: string;
    readonly text: string;
  }
  | { readonly type: "confirm-quit"; readonly running: number }
  | { readonly type: "restart-choice"; readonly target: string; readonly group: string };

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
  readonly sessions: readonly SessionRow[];
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
  /** The live watcher pattern armed with `v`, per session (W2). */
  readonly watch: Readonly<Record<string, string>>;
  /** Epoch ms of the last clock tick (durations). */
  readonly now: number;
  /** Animation frame counter of the one shared clock (T3). */
  readonly spin: number;
  readonly reduceMotion: boolean;
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
    watch: {},
    now,
    spin: 0,
    reduceMotion,
  };
}
