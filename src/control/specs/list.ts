/** `list [--group G]`: id, name, group, status and agent state of every session (C2). */

import { defineSpec } from "../spec.ts";
import type { SessionEntry } from "../entry.ts";
import { formatReset } from "../../limits/reset_time.ts";

export interface ListResult {
  readonly sessions: SessionEntry[];
}

export default defineSpec<ListResult>({
  name: "list",
  summary: "List sessions with their status and agent state",
  args: [{ name: "group", type: "string", meta: "G", help: "only the sessions of group G" }],
  format({ sessions }) {
    if (sessions.length === 0) return "No sessions";
    const rows = sessions.map((s) => [
      s.id,
      s.name,
      s.group ?? "-",
      s.status === "exited"
        ? `exited (${s.signal !== null ? `signal ${s.signal}` : `code ${s.exitCode}`})`
        : "running",
      s.agent ?? "-",
      s.state === null
        ? "-"
        : s.kind === "limit" && s.resetsAt !== null
        ? `${s.state} (limit) resets ${formatReset(Date.parse(s.resetsAt), Date.now())}`
        : s.kind
        ? `${s.state} (${s.kind})`
        : s.state,
    ]);
    return table([["ID", "NAME", "GROUP", "STATUS", "AGENT", "STATE"], ...rows]);
  },
});

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd()).join("\n");
}
