/** Plain session data (S1) as listed by the store, the TUI and `ctl list`. */

import type { AgentStatus } from "./agent.ts";

export type SessionStatus = "running" | "exited";

export interface SessionInfo {
  readonly id: string;
  readonly name: string;
  readonly group: string | null;
  /** The command as given (run through `$SHELL -c`), or the shell itself. */
  readonly command: string;
  readonly cwd: string;
  readonly pid: number;
  readonly cols: number;
  readonly rows: number;
  readonly status: SessionStatus;
  readonly exitCode: number | null;
  /** Signal number that ended the process, or null. */
  readonly signal: number | null;
  readonly createdAt: number;
  /** Catalog id of the foreground agent, or null for a plain session. */
  readonly agent: string | null;
  readonly agentStatus: AgentStatus | null;
}
