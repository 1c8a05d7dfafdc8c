/**
 * What the control verbs may touch: the sessions' handles and verbs (to act
 * on them; not the store's events), the runtime's state and its change
 * stream (to report and wait on them:
 * src/model/runtime.ts), a fresh classification right before typing (D7),
 * and session creation through the runtime (which never moves the user's
 * focus: `ctl new` does not steal selection or keyboard, C2). control/
 * never imports the runtime; the runtime passes itself in (structurally).
 */

import type { ResumePolicy } from "../limits/resume.ts";
import type { RuntimeChange } from "../model/runtime.ts";
import type { SessionView } from "../model/session.ts";
import type { HostView } from "../model/hosts.ts";
import type { Session } from "../session/session.ts";
import type { WorktreeRegistry } from "../git/worktree_registry.ts";
import type { SessionHandles, SessionSpec } from "../session/store.ts";

export interface ControlHost {
  readonly sessions: SessionHandles;
  /** The git worktrees lazyshell made (`ctl worktrees`, `ctl worktree-remove BRANCH`). */
  readonly worktrees: WorktreeRegistry;
  /** One session as the runtime's state has it, or undefined. */
  view(id: string): SessionView | undefined;
  /** The runtime's change stream (`ctl wait` follows it). */
  subscribe(listener: (change: RuntimeChange) => void): Disposable;
  /** Re-classifies the session from a fresh snapshot now (D7: right before typing). */
  classifyNow(id: string): void;
  /** The agent's input box now ("" empty), or null when it cannot be read (send receipts). */
  input(id: string): string | null;
  /** Creates a session without touching focus. */
  createSession(spec: SessionSpec): Session;
  /**
   * Starts an agent of the catalog (in a new worktree when asked), its
   * first prompt typed once it is ready (src/runtime/launch.ts).
   */
  launchAgent(spec: AgentSpec): Promise<Session>;
  /** The hosts the server watches (`ctl hosts`; docs/remote.md), when it watches some. */
  readonly hosts?: () => readonly HostView[];
  /** Pending resumes at usage limits (docs/limits.md; `ctl limit`), when the runtime runs them. */
  readonly resumes?: {
    confirm(id: string): void;
    cancel(id: string): void;
    state(id: string): { readonly phase: string; readonly reason: string | null } | null;
    policy(id: string): { readonly policy: string; readonly from: string };
    setSessionPolicy(id: string, policy: ResumePolicy | null): void;
    setGroupPolicy(group: string, policy: ResumePolicy | null): void;
    readonly policies: { group(name: string | null): ResumePolicy | null };
  };
}

/** `ctl new --agent ID [--prompt T] [--worktree]` (src/runtime/launch.ts). */
export interface AgentSpec {
  /** Catalog id (`claude`, `codex`, …). */
  readonly agent: string;
  /** The folder (default: the runtime's working directory). */
  readonly cwd?: string;
  /** Typed once the agent is ready for input. */
  readonly prompt?: string;
  /** Default: the prompt's first words, else the agent id (made unique). */
  readonly name?: string;
  /** In a new git worktree of the folder's repository, on a branch named after the session. */
  readonly worktree?: boolean;
  readonly group?: string | null;
}
