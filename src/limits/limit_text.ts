/**
 * A usage limit in words (docs/limits.md), one place for every reader: the
 * TUI list (`⏸ limit · resets 03:00 (2h13m)`), `lazyshell ls`, `ctl list`,
 * notifications (`cl2: limit reached, resets 03:00`). Pure: `now` and the
 * viewer's zone (null: the machine's) are given.
 */

import type { AgentStatus } from "../model/agent.ts";
import { formatReset, isTimeZone, machineTimeZone, wallOf } from "./reset_time.ts";

/** The marker of a limited session in the list. */
export const LIMIT_MARKER = "⏸";

/** Whether the status is a usage limit. */
export function isLimit(status: Pick<AgentStatus, "state" | "kind"> | null | undefined): boolean {
  return status?.state === "error" && status.kind === "limit";
}

/** The reset instant of a limited status, or null (not a limit, or no time read). */
export function resetsAtOf(status: AgentStatus | null | undefined): number | null {
  return isLimit(status) && typeof status!.resetsAt === "number" ? status!.resetsAt : null;
}

/** `limit · resets 03:00 (2h13m)`, `limit · reset time unknown`. */
export function limitText(
  status: AgentStatus,
  now: number,
  timeZone: string | null = null,
): string {
  const at = resetsAtOf(status);
  return at === null
    ? "limit · reset time unknown"
    : `limit · resets ${formatReset(at, now, timeZone)}`;
}

/** `cl2: limit reached, resets 03:00` (a notification: no countdown, it would go stale). */
export function limitNotice(
  name: string,
  status: AgentStatus,
  now: number,
  timeZone: string | null = null,
): string {
  const at = resetsAtOf(status);
  if (at === null) return `${name}: limit reached`;
  const zone = { name: timeZone && isTimeZone(timeZone) ? timeZone : machineTimeZone() };
  const w = wallOf(at, zone);
  const n = wallOf(now, zone);
  const hm = `${String(w.hour).padStart(2, "0")}:${String(w.minute).padStart(2, "0")}`;
  const sameDay = w.year === n.year && w.month === n.month && w.day === n.day;
  const day = sameDay
    ? ""
    : `${new Date(Date.UTC(w.year, w.month - 1, w.day)).toUTCString().slice(8, 11)} ${w.day} `;
  return `${name}: limit reached, resets ${day}${hm}`;
}

/** How often the TUI redraws while a session waits at a usage limit: its countdown moves. */
export const LIMIT_TICK_MS = 10_000;

/** Whether a running session waits at a usage limit (the TUI's clock runs for its countdown). */
export function anythingLimited(
  state: { readonly sessions: readonly { status: string; agentStatus: AgentStatus | null }[] },
): boolean {
  return state.sessions.some((r) => r.status === "running" && isLimit(r.agentStatus));
}

/**
 * One line per agent whose usage limit stops several running sessions (they share the
 * vendor's limit): `⏸ codex ×2 at a usage limit · resets 15:11 (4m)`, the earliest reset.
 */
export function limitSummaries(
  sessions: readonly {
    status: string;
    agent: string | null;
    agentStatus: AgentStatus | null;
  }[],
  now: number,
  timeZone: string | null = null,
): string[] {
  const by = new Map<string, { count: number; at: number | null }>();
  for (const s of sessions) {
    if (s.status !== "running" || s.agent === null || !isLimit(s.agentStatus)) continue;
    const at = resetsAtOf(s.agentStatus);
    const e = by.get(s.agent) ?? { count: 0, at: null };
    e.count++;
    if (at !== null && (e.at === null || at < e.at)) e.at = at;
    by.set(s.agent, e);
  }
  return [...by].filter(([, e]) => e.count >= 2).map(([agent, e]) =>
    `${LIMIT_MARKER} ${agent} ×${e.count} at a usage limit` +
    (e.at === null ? "" : ` · resets ${formatReset(e.at, now, timeZone)}`)
  );
}
