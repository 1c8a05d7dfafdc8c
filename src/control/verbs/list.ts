/** `list [--group G]`: id, name, group, status and agent state of every session (C2). */

import { defineVerb, str } from "../verb.ts";
import { entryOf, type SessionEntry } from "../entry.ts";
import { resolveTargets } from "../targets.ts";
import { formatReset } from "../../limits/reset_time.ts";

export default defineVerb({
  name: "list",
  summary: "List sessions with their status and agent state",
  args: [{ name: "group", type: "string", meta: "G", help: "only the sessions of group G" }],
  run({ host }, args): { sessions: SessionEntry[] } {
    const group = str(args, "group");
    const sessions = group === undefined
      ? host.sessions.list()
      : resolveTargets(host.sessions, { group });
    return { sessions: sessions.map((s) => entryOf(host, s)) };
  },
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
