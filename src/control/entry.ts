/** One session as the control API reports it: plain data, agent state and its provenance (A3). */

import type { AgentStatus } from "../model/agent.ts";
import type { Session } from "../session/session.ts";
import type { ControlHost } from "./host.ts";

export interface SessionEntry {
  readonly id: string;
  readonly name: string;
  readonly group: string | null;
  readonly status: "running" | "exited";
  readonly exitCode: number | null;
  readonly signal: number | null;
  readonly command: string;
  readonly cwd: string;
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
}

export function entryOf(host: ControlHost, session: Session): SessionEntry {
  const info = host.info(session);
  const status = host.states?.status(session.id) ?? info.agentStatus ?? null;
  return {
    id: info.id,
    name: info.name,
    group: info.group,
    status: info.status,
    exitCode: info.exitCode,
    signal: info.signal,
    command: info.command,
    cwd: info.cwd,
    pid: info.pid,
    agent: host.states?.agent(session.id) ?? info.agent,
    state: status?.state ?? null,
    kind: status?.kind ?? null,
    source: status?.source ?? null,
    ruleId: status?.ruleId ?? null,
    seq: status?.seq ?? null,
    since: status?.since ?? null,
    msg: status?.msg ?? null,
  };
}

/** `session-2 (build)` */
export function label(entry: { id: string; name: string }): string {
  return `${entry.id} (${entry.name})`;
}
