/** One session as the control API reports it (`ctl list --json`): a flat projection of its view. */

import type { AgentStatus } from "../model/agent.ts";
import type { Prompt } from "../model/prompt.ts";
import type { SessionView } from "../model/session.ts";
import type { Session } from "../session/session.ts";
import type { ControlHost } from "./host.ts";
import { plainText } from "../model/printable.ts";

export interface SessionEntry {
  readonly id: string;
  readonly name: string;
  readonly group: string | null;
  readonly status: "running" | "exited";
  readonly exitCode: number | null;
  readonly signal: number | null;
  readonly command: string;
  readonly cwd: string;
  /** The git worktree lazyshell made for the session (path, branch, base, repo), or null. */
  readonly worktree: SessionView["worktree"];
  readonly pid: number;
  /** Catalog id of the foreground agent, or null. */
  readonly agent: string | null;
  /** Agent state (null: no agent or no evidence yet) with kind, source, rule, seq, since, msg. */
  readonly state: AgentStatus["state"] | null;
  readonly kind: AgentStatus["kind"];
  readonly source: AgentStatus["source"] | null;
  readonly ruleId: string | null;
  readonly seq: number | null;
  readonly since: number | null;
  readonly msg: string | null;
  /** A usage limit's reset (ISO 8601; docs/limits.md), or null. */
  readonly resetsAt: string | null;
  /** The program asked the OSC 7501 `?` query: it can declare its own state. */
  readonly capable: boolean;
  /** What a blocked agent asks and how to answer it (`ctl answer`), or null. */
  readonly prompt: Prompt | null;
  /** The agent conversation last seen (what `lazyshell restore` resumes), or null. */
  readonly conversation: {
    readonly agent: string | null;
    readonly id: string;
    readonly source: string;
  } | null;
}

export function sessionEntry(view: SessionView): SessionEntry {
  const status = view.agentStatus;
  return {
    id: view.id,
    name: view.name,
    group: view.group,
    status: view.status,
    exitCode: view.exitCode,
    signal: view.signal,
    command: view.command,
    cwd: view.cwd,
    worktree: view.worktree,
    pid: view.pid,
    agent: view.agent,
    state: status?.state ?? null,
    kind: status?.kind ?? null,
    source: status?.source ?? null,
    ruleId: status?.ruleId ?? null,
    seq: status?.seq ?? null,
    since: status?.since ?? null,
    // Whatever set it (a hook, OSC 7501, a rule): no escape sequence reaches a `--json` reader.
    msg: status?.msg == null ? null : plainText(status.msg),
    resetsAt: typeof status?.resetsAt === "number" ? new Date(status.resetsAt).toISOString() : null,
    capable: view.capable,
    prompt: view.prompt,
    conversation: view.conversation === null ? null : {
      agent: view.conversation.agent,
      id: view.conversation.id,
      source: view.conversation.source,
    },
  };
}

/** The entry of a live session (created or acted on by this request). */
export function entryOf(host: ControlHost, session: Session): SessionEntry {
  const view = host.view(session.id);
  if (!view) throw new Error(`${session.id} is not in the runtime's state`);
  return sessionEntry(view);
}

export { label } from "./spec.ts";
