/**
 * Built-in tab "stats" (docs/plugin-protocol.md, docs/notifications.md): per session the current turn's running
 * time, the last turn's duration, the number of turns, and the
 * `agent_stats_command` line; then the sessions at a usage limit (docs/limits.md):
 * the reset and its countdown, the pending resume, the policy in force and
 * where it comes from, resumes done and failed. Data: the `sessions`
 * subscription. Time is injected so the view is testable.
 */

import type { HostMessage, SessionEntry } from "../_wire.ts";
import { BUILTIN_MANIFESTS } from "../../src/plugin/builtins.ts";
import { formatDuration } from "../../src/util/duration.ts";
import { formatReset } from "../../src/limits/reset_time.ts";
import { cell, type FrameData, navigate, type Outgoing, style, type TabPlugin } from "../_sdk.ts";

export class StatsTab implements TabPlugin {
  readonly manifest = BUILTIN_MANIFESTS.stats;
  sessions: SessionEntry[] = [];
  index = 0;

  constructor(private readonly now: () => number = Date.now) {}

  handle(message: HostMessage, send: (m: Outgoing) => void = () => {}): void {
    if (message.type === "key" && message.key === "enter") {
      const session = this.sessions[this.index];
      if (session) send({ type: "select_session", session: session.id });
      return;
    }
    if (message.type === "sessions") {
      this.sessions = message.sessions;
      this.index = Math.min(this.index, Math.max(0, this.sessions.length - 1));
    } else if (message.type === "key") {
      const next = navigate(message.key, this.index, this.sessions.length);
      if (next !== null) this.index = next;
    }
  }

  ticking(): boolean {
    // A running turn's time, or a limit's countdown, moves.
    return this.sessions.some((s) => s.turnStartedAt !== null || limited(s));
  }

  frame(): FrameData {
    if (this.sessions.length === 0) return { view: style.dim("No sessions yet"), count: null };
    const now = this.now();
    const lines = [
      style.bold(
        `${cell("SESSION", 18)}${cell("AGENT", 10)}${cell("STATE", 9)}${cell("TURN", 9)}${
          cell("LAST", 9)
        }${cell("TURNS", 6)}STATS`,
      ),
      "",
    ];
    this.sessions.forEach((s, i) => {
      const current = s.turnStartedAt === null ? "-" : formatDuration(now - s.turnStartedAt);
      const last = s.lastTurnMs === null ? "-" : formatDuration(s.lastTurnMs);
      const row = `${cell(s.name, 18)}${cell(s.agent ?? "-", 10)}${cell(s.state ?? "-", 9)}${
        cell(current, 9)
      }${cell(last, 9)}${cell(String(s.turns), 6)}${s.stats ?? ""}`;
      lines.push(i === this.index ? style.inverse(row) : row);
    });
    lines.push(...limitLines(this.sessions, now));
    const working = this.sessions.filter((s) => s.turnStartedAt !== null).length;
    return { view: lines.join("\n"), count: working === 0 ? null : working };
  }
}

function limited(s: SessionEntry): boolean {
  return s.kind === "limit" && s.state === "error" && s.status === "running";
}

/**
 * The sessions at a usage limit, and those whose resume did something:
 * `cl2  resets 03:00 (2h13m)  resume waiting  policy auto (group)  resumed 1  failed 0`.
 */
function limitLines(sessions: readonly SessionEntry[], now: number): string[] {
  const shown = sessions.filter((s) => limited(s) || s.limitResume);
  if (shown.length === 0) return [];
  const out = [
    "",
    style.bold(
      `${cell("USAGE LIMITS", 18)}${cell("RESETS", 22)}${cell("RESUME", 10)}${cell("POLICY", 18)}${
        cell("DONE", 6)
      }FAILED`,
    ),
  ];
  for (const s of shown) {
    const at = limited(s)
      ? typeof s.resetsAt === "number" ? formatReset(s.resetsAt, now) : "time unknown"
      : "not limited";
    const r = s.limitResume;
    const phase = r ? r.phase : "-";
    const policy = r ? `${r.policy} (${r.policyFrom})` : "-";
    const row = `${cell(s.name, 18)}${cell(at, 22)}${cell(phase, 10)}${cell(policy, 18)}${
      cell(r ? String(r.resumed) : "-", 6)
    }${r ? String(r.failed) : "-"}`;
    out.push(r?.reason ? `${row}  ${style.dim(r.reason)}` : row);
  }
  return out;
}
