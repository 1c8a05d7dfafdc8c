/**
 * The session list: ungrouped sessions first, then each group under its
 * header, creation order inside. Sessions that need you cannot be missed:
 * a red banner on top counts the blocked and the failed ones (B jumps),
 * their marker and name are red.
 */

import { isLimit, LIMIT_MARKER, limitSummaries, limitText } from "../../../limits/limit_text.ts";
import { errorReason } from "../../../model/agent.ts";
import type { TuiState } from "../../../model/tui.ts";
import type { SessionView } from "../../../model/session.ts";
import { BOLD, clipLine, type Frame, type Span, type StyledLine } from "../frame.ts";
import type { Rect } from "../layout.ts";
import { stringWidth, truncate } from "../../../util/width.ts";
import { markerOf } from "./marker.ts";
import { formatDuration } from "../../../util/duration.ts";
import { SELECTED_BG, theme } from "./theme.ts";
import { askedText } from "./answer.ts";
import { hostLines } from "./host_rows.ts";
import { hostRows } from "../remote_rows.ts";

type Entry =
  | { readonly type: "group"; readonly name: string }
  | { readonly type: "session"; readonly row: SessionView };

/** Sessions in the order the list shows them (j/k follow it). */
export function sessionOrder(sessions: readonly SessionView[]): SessionView[] {
  const groups = new Map<string, SessionView[]>();
  const loose: SessionView[] = [];
  for (const s of sessions) {
    if (s.group === null) loose.push(s);
    else groups.set(s.group, [...(groups.get(s.group) ?? []), s]);
  }
  return [...loose, ...[...groups.values()].flat()];
}

function entries(sessions: readonly SessionView[]): Entry[] {
  const out: Entry[] = [];
  let group: string | null = null;
  for (const row of sessionOrder(sessions)) {
    if (row.group !== null && row.group !== group) out.push({ type: "group", name: row.group });
    group = row.group;
    out.push({ type: "session", row });
  }
  return out;
}

export function blockedCount(sessions: readonly SessionView[]): number {
  return sessions.filter((s) => s.status === "running" && s.agentStatus?.state === "blocked")
    .length;
}

/** Running sessions whose last turn failed (`error`), until the user types into them. */
export function failedCount(sessions: readonly SessionView[]): number {
  return sessions.filter((s) => s.status === "running" && s.agentStatus?.state === "error")
    .length;
}

/** A session B jumps to: blocked, or its turn failed (N3). */
export function needsYou(row: SessionView): boolean {
  const state = row.agentStatus?.state;
  return row.status === "running" && (state === "blocked" || state === "error");
}

/** "‼ 2 blocked · ✗ 1 failed" ("‼ 2 · ✗ 1" when `short`), or "" when nothing needs you. */
export function attentionText(sessions: readonly SessionView[], short = false): string {
  const blocked = blockedCount(sessions);
  const failed = failedCount(sessions);
  return [
    blocked > 0 ? `‼ ${blocked}${short ? "" : " blocked"}` : "",
    failed > 0 ? `✗ ${failed}${short ? "" : " failed"}` : "",
  ].filter(Boolean).join(" · ");
}

/** The banner on top of the list: the longest of its forms that fits `width`. */
function bannerText(sessions: readonly SessionView[], width: number): string {
  const long = attentionText(sessions);
  if (!long) return "";
  const forms = [` ${long} · B jumps`, ` ${long}`, ` ${attentionText(sessions, true)} · B`];
  return forms.find((f) => stringWidth(f) <= width) ?? forms[forms.length - 1]!;
}

/** The detail line under a session, or null when there is nothing to say. */
function detail(row: SessionView, state: TuiState): Span[] | null {
  const spans: Span[] = [];
  const st = row.agentStatus;
  if (row.status === "exited") {
    const how = row.signal ? `signal ${row.signal}` : `exit ${row.exitCode ?? "?"}`;
    spans.push({ text: how, style: row.exitCode === 0 ? theme.dim : theme.error });
  } else if (st?.state === "working") {
    const start = row.turn.startedAt ?? st.since;
    spans.push({ text: `⏱ ${formatDuration(state.now - start)}`, style: theme.working });
  } else if (st?.state === "blocked") {
    spans.push({ text: askedText(row), style: theme.blocked });
  } else if (st && isLimit(st)) {
    spans.push({ text: `${LIMIT_MARKER} ${limitText(st, state.now)}`, style: theme.error });
  } else if (st?.state === "error") {
    const why = errorReason(st.kind, st.msg);
    spans.push({ text: why ? `failed: ${why}` : "failed", style: theme.error });
  } else if (row.agent !== null && st === null && !row.hasRules) {
    spans.push({ text: "no status", style: theme.noStatus });
  }
  // W3: the stats command runs for the selected session only; its line is shown there alone.
  if (row.stats && row.id === state.selected && row.status === "running") {
    if (spans.length) spans.push({ text: "  " });
    spans.push({ text: row.stats, style: theme.dim });
  }
  return spans.length ? spans : null;
}

function sessionLines(row: SessionView, state: TuiState, width: number): StyledLine[] {
  const selected = row.id === state.selected;
  const bg = selected ? { bg: SELECTED_BG } : {};
  const m = markerOf(row, state);
  const blocked = m.label === "blocked" || m.label === "error";
  const agent = row.agent ?? "";
  const nameStyle = { ...(blocked ? theme.blocked : selected ? theme.bold : theme.text), ...bg };
  const room = width - 4 - (agent ? stringWidth(agent) + 1 : 0);
  const name = truncate(row.name, Math.max(1, room));
  const gap = Math.max(1, width - 3 - stringWidth(name) - stringWidth(agent) - 1);
  const first: Span[] = [
    { text: selected ? "▌" : " ", style: { fg: blocked ? 1 : 6, attrs: BOLD, ...bg } },
    { text: m.text, style: { ...m.style, ...bg } },
    { text: " ", style: bg },
    { text: name, style: nameStyle },
    ...(agent && room > 3
      ? [{ text: " ".repeat(gap), style: bg }, { text: agent, style: { ...theme.dim, ...bg } }]
      : []),
  ];
  const lines: StyledLine[] = [first];
  const more = detail(row, state);
  if (more) {
    const styled = more.map((s) => ({ ...s, style: { ...s.style, ...bg } }));
    // A blocked or failed session's reason is what the user must read: up to three rows.
    const rows = needsYou(row)
      ? wrapLine(styled, Math.max(1, width - 3), BLOCKED_ROWS)
      : [clipLine(styled, Math.max(0, width - 3))];
    for (const r of rows) lines.push([{ text: "   ", style: bg }, ...r]);
  }
  return lines;
}

const BLOCKED_ROWS = 3;

/** Cuts a styled line into rows of `width` columns, at most `max` (the last ends in `…` if cut). */
function wrapLine(line: StyledLine, width: number, max: number): StyledLine[] {
  const rows: Span[][] = [[]];
  let w = 0;
  for (const span of line) {
    let text = "";
    for (const ch of span.text) {
      const cw = stringWidth(ch);
      if (w + cw > width) {
        if (text) rows.at(-1)!.push({ ...span, text });
        text = "";
        rows.push([]);
        w = 0;
      }
      text += ch;
      w += cw;
    }
    if (text) rows.at(-1)!.push({ ...span, text });
  }
  if (rows.length <= max) return rows;
  const kept = rows.slice(0, max);
  kept[max - 1] = [...clipLine([...kept[max - 1]!, { text: "…" }], width)];
  return kept;
}

export interface SidebarLines {
  readonly lines: readonly StyledLine[];
  /** The session each drawn row belongs to (for clicks), null for others. */
  readonly ids: readonly (string | null)[];
}

/** The rows the list shows in a `width` x `height` area, scrolled to keep the selection in view. */
export function sidebarLines(state: TuiState, width: number, height: number): SidebarLines {
  const lines: StyledLine[] = [];
  const ids: (string | null)[] = [];
  let selectedLine = 0;
  // The other hosts' blocked and failed sessions count too (B reaches them).
  const attention = bannerText([...state.sessions, ...state.hosts.flatMap(hostRows)], width);
  if (attention) {
    lines.push([{ text: attention, style: theme.blockedBanner }]);
    ids.push(null);
  }
  // Several sessions stopped by one vendor's usage limit (docs/limits.md): one line for them.
  for (const summary of limitSummaries(state.sessions, state.now)) {
    lines.push([{ text: truncate(` ${summary}`, width), style: theme.error }]);
    ids.push(null);
  }
  if (state.sessions.length === 0) {
    lines.push([{ text: " No sessions", style: theme.dim }]);
    lines.push([{ text: " n starts a shell", style: theme.dim }]);
    ids.push(null, null);
  }
  // A remote row selected (docs/remote.md): the local one is not highlighted meanwhile.
  const local = state.remote === null ? state : { ...state, selected: null };
  for (const e of entries(state.sessions)) {
    if (e.type === "group") {
      lines.push([{ text: " ▾ ", style: theme.group }, { text: e.name, style: theme.group }]);
      ids.push(null);
      continue;
    }
    if (e.row.id === local.selected) selectedLine = lines.length;
    for (const line of sessionLines(e.row, local, width)) {
      lines.push(line);
      ids.push(e.row.id);
    }
  }
  const remote = { ...state, selected: state.remote };
  const hosts = hostLines(state, width, (row) => sessionLines(row, remote, width));
  hosts.lines.forEach((line, i) => {
    if (state.remote !== null && hosts.ids[i] === state.remote && ids.at(-1) !== state.remote) {
      selectedLine = lines.length;
    }
    lines.push(line);
    ids.push(hosts.ids[i]!);
  });
  // Keep the selection in view; the blocked banner stays on top.
  const pinned = attention ? 1 : 0;
  const avail = height - pinned;
  const offset = Math.max(0, selectedLine + 2 - (pinned + avail));
  const outLines: StyledLine[] = [];
  const outIds: (string | null)[] = [];
  for (let y = 0; y < height; y++) {
    const i = y < pinned ? y : y + offset;
    outLines.push(lines[i] ?? []);
    outIds.push(ids[i] ?? null);
  }
  return { lines: outLines, ids: outIds };
}

export function drawSidebar(frame: Frame, r: Rect, state: TuiState): void {
  if (r.width <= 0 || r.height <= 0) return;
  const { lines } = sidebarLines(state, r.width, r.height);
  lines.forEach((line, y) => {
    const first = line[0]?.style;
    const pad = first === theme.blockedBanner
      ? first
      : first?.bg !== undefined
      ? { bg: first.bg }
      : {};
    frame.line(r.x, r.y + y, r.width, line, pad);
  });
}
