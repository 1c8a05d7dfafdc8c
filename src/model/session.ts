/**
 * One session as every consumer sees it (docs/architecture.md: Sessions, One runtime state): plain,
 * serialisable data kept by the runtime's one reducer (src/runtime/state.ts)
 * and read by the TUI, the plugin feed, the control verbs and the
 * notifications. Adding a session fact means adding it here and in that
 * reducer; the wire formats (ctl list --json, the plugin `sessions`
 * message) are projections of it.
 */

import type { AgentStatus } from "./agent.ts";
import type { Prompt } from "./prompt.ts";

export type SessionStatus = "running" | "exited";

/** The turns of an agent session (A2): a turn runs while the state is `working`. */
export interface TurnView {
  /** Epoch ms the running turn started, or null when no turn runs. */
  readonly startedAt: number | null;
  /** Duration of the last finished turn in ms, or null. */
  readonly lastMs: number | null;
  /** Turns started so far. */
  readonly count: number;
}

/**
 * The agent conversation a session runs, from the evidence the agent gave
 * (a hook payload's id, docs/hooks.md): what `lazyshell restore` resumes.
 */
export interface ConversationRef {
  /** The agent in the session's foreground when the id was seen (null: not identified yet). */
  readonly agent: string | null;
  /** The agent's own id (Claude's session_id, Codex's thread-id, opencode's sessionID). */
  readonly id: string;
  /** Where the id came from, e.g. `hook UserPromptSubmit: session_id`. */
  readonly source: string;
  /** The agent's working directory, when the evidence names it. */
  readonly cwd: string | null;
  /** The agent's transcript file, when the evidence names it (Claude's transcript_path). */
  readonly transcript: string | null;
}

/** A git worktree lazyshell made for a session (`N` … in a new worktree, `ctl new --worktree`). */
export interface WorktreeInfo {
  /** The worktree's folder (the session's cwd). */
  readonly path: string;
  /** The branch made for it. */
  readonly branch: string;
  /** The commit it started from (the branch point its changes are read against). */
  readonly base: string;
  /** The main checkout of the repository. */
  readonly repo: string;
}

export interface SessionView {
  readonly id: string;
  readonly name: string;
  readonly group: string | null;
  /** The command as given (run through `$SHELL -c`), or the shell itself. */
  readonly command: string;
  readonly cwd: string;
  /** The git worktree lazyshell made for this session, or null. */
  readonly worktree: WorktreeInfo | null;
  readonly pid: number;
  readonly cols: number;
  readonly rows: number;
  readonly status: SessionStatus;
  readonly exitCode: number | null;
  /** Signal number that ended the process, or null. */
  readonly signal: number | null;
  /** Epoch ms. */
  readonly createdAt: number;
  /** Catalog id of the foreground agent, or null for a plain session. */
  readonly agent: string | null;
  /** The agent has detection rules (A1: a dim "no status" mark otherwise). */
  readonly hasRules: boolean;
  /** The arbitrated agent state with its provenance, or null (nothing to show). */
  readonly agentStatus: AgentStatus | null;
  /** The program asked the OSC 7501 `?` query: it can declare its own state. */
  readonly capable: boolean;
  /** While blocked: what the agent asks and how to answer (src/model/prompt.ts), or null. */
  readonly prompt: Prompt | null;
  readonly turn: TurnView;
  /** First line of `agent_stats_command` for this session (W3), if any. */
  readonly stats: string | null;
  /** The live watcher pattern (`v`, W2), or null. */
  readonly watcher: string | null;
  /**
   * Epoch ms of the last output, at most one update a second (enough for
   * "new output since you looked"; the screen itself is read, not sent).
   */
  readonly outputAt: number;
  /** The project file that declared this session (S5), or null. */
  readonly origin: string | null;
  /** The agent conversation last seen in this session, or null. */
  readonly conversation: ConversationRef | null;
}

/** What the store knows of a session when it starts. */
export type SessionFacts = Pick<
  SessionView,
  | "id"
  | "name"
  | "group"
  | "command"
  | "cwd"
  | "worktree"
  | "pid"
  | "cols"
  | "rows"
  | "status"
  | "exitCode"
  | "signal"
  | "createdAt"
  | "origin"
>;

export const NO_TURN: TurnView = { startedAt: null, lastMs: null, count: 0 };

/** A session that just started: nothing detected yet. */
export function newSessionView(facts: SessionFacts): SessionView {
  return {
    ...facts,
    agent: null,
    hasRules: false,
    agentStatus: null,
    capable: false,
    prompt: null,
    turn: NO_TURN,
    stats: null,
    watcher: null,
    outputAt: 0,
    conversation: null,
  };
}

/** A view from a few facts (tests and fixtures): the rest as a new session has it. */
export function sessionView(id: string, more: Partial<SessionView> = {}): SessionView {
  return {
    ...newSessionView({
      id,
      name: id,
      group: null,
      command: "",
      cwd: "/",
      worktree: null,
      pid: 0,
      cols: 80,
      rows: 24,
      status: "running",
      exitCode: null,
      signal: null,
      createdAt: 0,
      origin: null,
    }),
    ...more,
  };
}
