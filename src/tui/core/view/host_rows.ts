/**
 * The watched hosts under the local sessions in the list (docs/remote.md,
 * "In the TUI"): a header per host with its state (`box · up`, `box ·
 * down, retry in 8s`, `box · connecting`), then its sessions while it is up
 * (drawn as local rows are), and the pane of a remote row selected. Pure.
 */

import type { HostView } from "../../../model/hosts.ts";
import type { SessionView } from "../../../model/session.ts";
import type { TuiState } from "../../../model/tui.ts";
import type { Frame, StyledLine } from "../frame.ts";
import type { Rect } from "../layout.ts";
import { stringWidth, truncate } from "../../../util/width.ts";
import { hostRows, selectedRemote } from "../remote_rows.ts";
import { theme } from "./theme.ts";
import { askedText } from "./answer.ts";

/** The header's state: up, connecting, or down with the next try's countdown (`short`: fewer words). */
export function hostState(h: HostView, now: number, short = false): string {
  if (h.phase === "up") return `up${h.sessions.length === 0 ? ", no sessions" : ""}`;
  if (h.phase === "connecting") return "connecting";
  const left = h.retryAt === null ? 0 : Math.max(0, Math.ceil((h.retryAt - now) / 1000));
  if (short) return left > 0 ? `down ${left}s` : "down";
  return left > 0 ? `down, retry in ${left}s` : "down, retrying";
}

/** ` ▸ box · down, retry in 8s`, or its short form where the list is narrow. */
function header(h: HostView, now: number, width: number): string {
  const long = ` ▸ ${h.name} · ${hostState(h, now)}`;
  return stringWidth(long) <= width
    ? long
    : truncate(` ▸ ${h.name} · ${hostState(h, now, true)}`, width);
}

/**
 * Every host's lines: its header, why it is down, then its rows (`rowLines` draws one, as the
 * local list does); `ids` gives the row key of each line, null for the others.
 */
export function hostLines(
  state: TuiState,
  width: number,
  rowLines: (row: SessionView) => StyledLine[],
): { lines: StyledLine[]; ids: (string | null)[] } {
  const lines: StyledLine[] = [];
  const ids: (string | null)[] = [];
  for (const h of state.hosts) {
    const style = h.phase === "up" ? theme.group : h.phase === "down" ? theme.error : theme.dim;
    lines.push([{ text: header(h, state.now, width), style }]);
    ids.push(null);
    if (h.phase !== "up" && h.error) {
      lines.push([{ text: truncate(`   ${h.error}`, width), style: theme.dim }]);
      ids.push(null);
    }
    for (const row of hostRows(h)) {
      for (const line of rowLines(row)) {
        lines.push(line);
        ids.push(row.id);
      }
    }
  }
  return { lines, ids };
}

/** The pane while a remote row is selected: where it runs, its state, what enter and o do. */
export function drawRemotePane(frame: Frame, r: Rect, state: TuiState): void {
  frame.fill(r.x, r.y, r.width, r.height);
  const sel = selectedRemote(state);
  if (!sel || r.width <= 0 || r.height <= 0) return;
  const { host, row } = sel;
  const st = row.agentStatus;
  const lines: StyledLine[] = [
    [{ text: ` ${row.name}`, style: theme.bold }, { text: ` on ${host}`, style: theme.dim }],
    [{
      text: ` ${row.status === "exited" ? "exited" : "running"}${
        row.agent ? ` · ${row.agent}` : ""
      }${st ? ` · ${st.state}` : ""}`,
      style: theme.dim,
    }],
  ];
  if (st?.state === "blocked") lines.push([{ text: ` ${askedText(row)}`, style: theme.blocked }]);
  lines.push([]);
  lines.push([
    { text: " enter", style: theme.key },
    { text: ` attaches (lazyshell -H ${host} attach; d there comes back)` },
  ]);
  if (row.prompt !== null && st?.state === "blocked") {
    lines.push([{ text: " o", style: theme.key }, { text: ` answers it on ${host}` }]);
  }
  lines.forEach((line, i) => {
    if (i < r.height) frame.line(r.x, r.y + 1 + i, r.width, line);
  });
}
