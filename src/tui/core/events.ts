/**
 * What flows into the TUI reducer (events) and out of it (effects), as
 * discriminated unions with named fields (docs/architecture.md, Conventions). PTY bytes never
 * travel here: only keys, derived facts and commands.
 */

import type { ResumePolicy } from "../../limits/resume.ts";
import type { RestoreChoice, TabInfo } from "../../model/tui.ts";
import type { SessionView } from "../../model/session.ts";
import type { KeyEvent, MouseEvent, UserInput } from "./keys.ts";
import type { TabMouse } from "./tab.ts";
import type { Choice, Prompt } from "../../model/prompt.ts";
import type { SearchDirection, SearchFrom, SearchHit } from "../../model/search.ts";
import type { TileSize } from "./view/tiles_layout.ts";
import type { AgentChoice } from "../../model/agent.ts";
import type { HostView } from "../../model/hosts.ts";

export type TuiEvent =
  | { readonly type: "input"; readonly input: UserInput }
  | { readonly type: "resize"; readonly cols: number; readonly rows: number }
  /** The sessions of the runtime's state, as they are now. */
  | { readonly type: "sessions"; readonly sessions: readonly SessionView[] }
  /** A session the user asked for exists now: select it and type into it. */
  | { readonly type: "created"; readonly id: string }
  /** Where the last client left (a new attach starts there), when it still exists. */
  | { readonly type: "resume"; readonly selected: string | null; readonly tab: number }
  /** `x` (or `W`: `restart`) hit a session that runs an agent or a program: ask before ending it. */
  | {
    readonly type: "confirm-kill";
    readonly id: string;
    readonly what: string;
    readonly restart?: boolean;
    /** The palette's `restart-group`: every session of the group, restarted on `y`. */
    readonly ids?: readonly string[];
  }
  /** Select a session (e.g. the new one after a restart), staying in navigation mode. */
  | { readonly type: "select"; readonly id: string }
  /** The scrollback view of a session moved to `offset` lines up. */
  | { readonly type: "scrolled"; readonly id: string; readonly offset: number }
  /** Copy mode can start: the session's oldest line and where its cursor is (lines up). */
  | {
    readonly type: "copy-started";
    readonly id: string;
    readonly top: number;
    readonly cursor: number;
  }
  /** What a search found (null: nothing in that direction). */
  | {
    readonly type: "search-result";
    readonly id: string;
    readonly query: string;
    readonly direction: SearchDirection;
    readonly hit: SearchHit | null;
    readonly top: number;
  }
  /** Open the new agent session form (`N`): this client's folder, the agents known so far. */
  | {
    readonly type: "new-agent-form";
    readonly folder: string;
    readonly agents: readonly AgentChoice[] | null;
    /** Config `worktrees.branch_prefix`, shown in the branch the form would make. */
    readonly branchPrefix?: string;
  }
  /** The catalog's agents, detected (installed first, with versions). */
  | { readonly type: "agent-choices"; readonly agents: readonly AgentChoice[] }
  | { readonly type: "tick"; readonly now: number }
  | { readonly type: "tabs"; readonly tabs: readonly TabInfo[] }
  /** The watched hosts' table, as it is now (docs/remote.md). */
  | { readonly type: "hosts"; readonly hosts: readonly HostView[] }
  | { readonly type: "message"; readonly text: string; readonly error: boolean }
  /** A message has been on screen long enough: cleared if it is still this one. */
  | { readonly type: "message-expired"; readonly text: string }
  /** The saved sessions to offer (`R`, or a client attaching while some wait). */
  | {
    readonly type: "restore-offer";
    readonly items: readonly Omit<RestoreChoice, "picked">[];
    readonly problem: string | null;
  };

export type TuiEffect =
  | { readonly type: "send-key"; readonly id: string; readonly key: KeyEvent }
  | { readonly type: "paste"; readonly id: string; readonly text: string }
  /** A mouse event inside the pane, at pane-relative (x, y), for a child that asked for it. */
  | {
    readonly type: "mouse";
    readonly id: string;
    readonly event: MouseEvent;
    readonly x: number;
    readonly y: number;
  }
  | { readonly type: "create" }
  /** `N`: find this client's folder and the agents, then open the form. */
  | { readonly type: "new-agent-form" }
  /** The form's enter: start the agent (empty prompt: none; empty name: from the prompt). */
  | {
    readonly type: "launch-agent";
    readonly agent: string;
    readonly cwd: string;
    readonly prompt: string;
    readonly name: string;
    readonly worktree: boolean;
  }
  /** `x`: ends the session, unless it runs something worth asking about (then asks). */
  | { readonly type: "kill"; readonly id: string; readonly confirmed?: boolean }
  | { readonly type: "remove"; readonly id: string }
  /** End (if running) and remove the session, then remove its worktree (and branch unless kept). */
  | { readonly type: "finish-worktree"; readonly id: string; readonly keepBranch: boolean }
  | { readonly type: "rename"; readonly id: string; readonly name: string }
  /** `W`: end and start again, asking first (as `x`) unless `confirmed`. */
  | { readonly type: "restart"; readonly ids: readonly string[]; readonly confirmed?: boolean }
  /** `U`: resume the session at its usage limit now (after the reset, re-checked; docs/limits.md). */
  | { readonly type: "resume-limit"; readonly id: string }
  /** `C`: cancel the session's pending resume at its usage limit (docs/limits.md). */
  | { readonly type: "cancel-limit"; readonly id: string }
  /** `P`: the resume policy of a session (group null) or of its group; null: default. */
  | {
    readonly type: "limit-policy";
    readonly id: string;
    readonly group: string | null;
    readonly policy: ResumePolicy | null;
  }
  | { readonly type: "watch"; readonly id: string; readonly pattern: string | null }
  | { readonly type: "scroll"; readonly id: string; readonly delta: number }
  | { readonly type: "focus"; readonly selected: string | null; readonly terminal: boolean }
  /** Copy mode: read the session's buffer size and cursor (answered by `copy-started`). */
  | { readonly type: "copy-start"; readonly id: string }
  | {
    readonly type: "search";
    readonly id: string;
    readonly query: string;
    readonly from: SearchFrom | null;
    readonly direction: SearchDirection;
  }
  /** Lines `top`..`bottom` (counted up from the last row) to the client's clipboard. */
  | {
    readonly type: "copy-yank";
    readonly id: string;
    readonly top: number;
    readonly bottom: number;
  }
  /** The pane's size, and each tiled session's own (src/tui/core/view/tiles_layout.ts). */
  | {
    readonly type: "resize-sessions";
    readonly cols: number;
    readonly rows: number;
    readonly tiles: readonly TileSize[];
    /**
     * The tiles changed (not only the terminal's size): each tile's session takes its tile's
     * size from this client, as focusing it does. Without it only the sessions that follow this
     * client are resized (a resize of one client takes no session from another).
     */
    readonly claim?: true;
  }
  | { readonly type: "tab-key"; readonly tab: number; readonly key: KeyEvent }
  | { readonly type: "tab-paste"; readonly tab: number; readonly text: string }
  | { readonly type: "tab-mouse"; readonly tab: number; readonly event: TabMouse }
  | { readonly type: "tab-command"; readonly tab: number; readonly name: string }
  /** Answer a blocked session's prompt (the one shown: refused if it changed). */
  | {
    readonly type: "answer";
    readonly id: string;
    readonly choice: Choice;
    readonly shown: Prompt;
  }
  /** `R`: fetch the saved sessions and offer them. */
  | { readonly type: "restore-offer" }
  /** Restore these saved sessions, forget those. */
  | {
    readonly type: "restore";
    readonly names: readonly string[];
    readonly forget: readonly string[];
  }
  /** Enter on a remote row: hand this terminal to `lazyshell -H HOST attach` until it detaches. */
  | { readonly type: "remote-attach"; readonly host: string; readonly id: string }
  | { readonly type: "quit" }
  /** Leave this client; the server and its sessions keep running. */
  | { readonly type: "detach" };
