/**
 * Other hosts' sessions in the list (docs/remote.md, "In the TUI"), pure:
 * each watched host under a header with its state, its sessions as rows
 * keyed `@host/id` (model/hosts.ts remoteKey), reached by j/k after the
 * local ones. A remote row selected is `state.remote`; the local
 * `selected` stays what it was. On a remote row, enter hands the terminal to
 * `lazyshell -H host attach` (effect `remote-attach`), `o` answers its
 * prompt through that host's `ctl answer`; what needs the session's own
 * terminal here (kill, rename, copy, …) says where it runs.
 */

import type { HostView, RemoteSession } from "../../model/hosts.ts";
import { parseRemoteKey, remoteKey } from "../../model/hosts.ts";
import { printable } from "../../model/printable.ts";
import { type SessionView, sessionView } from "../../model/session.ts";
import type { TuiState } from "../../model/tui.ts";
import type { TuiEffect } from "./events.ts";
import { sessionOrder } from "./view/sidebar.ts";
import { answerable, askedText } from "./view/answer.ts";

/**
 * A remote session as the list draws it: a view keyed by its remote key. What the host sent is
 * text to show, never to obey: control characters are shown escaped (printable()).
 */
export function remoteView(host: string, r: RemoteSession): SessionView {
  const p = r.prompt;
  return sessionView(remoteKey(host, r.id), {
    name: printable(String(r.name)),
    group: r.group === null ? null : printable(String(r.group)),
    status: r.status,
    exitCode: r.exitCode,
    signal: r.signal,
    agent: r.agent === null ? null : printable(String(r.agent)),
    hasRules: true,
    agentStatus: r.state === null ? null : {
      state: r.state,
      kind: r.kind,
      source: "declared",
      ruleId: "remote",
      seq: r.seq ?? 0,
      since: r.since ?? 0,
      msg: r.msg === null ? null : printable(String(r.msg)),
      resetsAt: r.resetsAt === null ? null : Date.parse(r.resetsAt),
    },
    prompt: p === null ? null : {
      ...p,
      question: printable(String(p.question)),
      subject: p.subject === null ? null : printable(String(p.subject)),
      options: p.options.map((o) => ({ ...o, label: printable(String(o.label)) })),
    },
  });
}

/** The rows a host shows: its sessions while it is up, none otherwise. */
export function hostRows(h: HostView): SessionView[] {
  return h.phase === "up" ? h.sessions.map((r) => remoteView(h.name, r)) : [];
}

/** Every row in list order: the local sessions, then each host's. */
export function listRows(s: TuiState): SessionView[] {
  return [...sessionOrder(s.sessions), ...s.hosts.flatMap(hostRows)];
}

/** Every row's key in list order. */
export function listKeys(s: TuiState): string[] {
  return listRows(s).map((r) => r.id);
}

/** The remote row selected, with its host; null when the selection is local. */
export function selectedRemote(s: TuiState): { host: string; row: SessionView } | null {
  return s.remote === null ? null : remoteRow(s, s.remote);
}

export function remoteRow(s: TuiState, key: string): { host: string; row: SessionView } | null {
  const at = parseRemoteKey(key);
  if (!at) return null;
  const h = s.hosts.find((x) => x.name === at.host);
  const r = h?.phase === "up" ? h.sessions.find((x) => x.id === at.id) : undefined;
  return h && r ? { host: h.name, row: remoteView(h.name, r) } : null;
}

/** Selects the row of `key` (local or remote). */
export function pick(s: TuiState, key: string): TuiState {
  return parseRemoteKey(key) ? { ...s, remote: key } : { ...s, selected: key, remote: null };
}

/** j/k over local and remote rows. */
export function moveSelection(s: TuiState, step: number): TuiState {
  const keys = listKeys(s);
  if (keys.length === 0) return s;
  const i = keys.indexOf(s.remote ?? s.selected ?? "");
  return pick(s, keys[Math.min(keys.length - 1, Math.max(0, i + step))]!);
}

/**
 * A new table: a remote selection that is no longer listed goes back to the local one; a session
 * there that was listed and now asks something is said on the message line, as a local one is.
 */
export function withHosts(s: TuiState, hosts: readonly HostView[]): TuiState {
  let next: TuiState = { ...s, hosts };
  if (next.remote !== null && remoteRow(next, next.remote) === null) {
    next = { ...next, remote: null };
  }
  const before = new Map(s.hosts.flatMap(hostRows).map((r) => [r.id, r]));
  for (const row of hosts.flatMap(hostRows)) {
    const old = before.get(row.id)?.agentStatus;
    const now = row.agentStatus;
    if (!before.has(row.id) || now?.state !== "blocked" || row.id === s.remote) continue;
    if (old?.state === "blocked" && old.seq === now.seq) continue;
    const host = parseRemoteKey(row.id)!.host;
    next = {
      ...next,
      message: { text: `‼ ${host}: ${row.name}: ${askedText(row)} · B jumps`, error: true },
    };
  }
  return next;
}

/** Keys that act the same on any row (quit, help, tabs, …): run as usual. */
const ANY_ROW = new Set([
  "quit",
  "detach",
  "help",
  "palette",
  "next-tab",
  "prev-tab",
  "goto-tab",
  "inbox",
  "new",
  "new-agent",
  "next-blocked",
  "next-limited",
  "restore",
]);

/**
 * A navigation action with a remote row selected; null when it is not the
 * remote row's to handle (act() runs it as usual).
 */
export function remoteAction(s: TuiState, action: string, fx: TuiEffect[]): TuiState | null {
  const sel = selectedRemote(s);
  if (!sel || ANY_ROW.has(action)) return null;
  const { host, row } = sel;
  const at = parseRemoteKey(row.id)!;
  switch (action) {
    case "down":
      return moveSelection(s, 1);
    case "up":
      return moveSelection(s, -1);
    case "focus":
      if (row.status !== "running") {
        return { ...s, message: { text: `${row.name} on ${host} has exited`, error: false } };
      }
      fx.push({ type: "remote-attach", host, id: at.id });
      return s;
    case "answer":
      if (!answerable(row)) {
        return {
          ...s,
          message: { text: `${row.name} on ${host} is not waiting for an answer`, error: false },
        };
      }
      return { ...s, overlay: { type: "answer", target: row.id, prompt: row.prompt } };
    default:
      return {
        ...s,
        message: {
          text: `${row.name} runs on ${host}: enter attaches there, o answers its prompt`,
          error: false,
        },
      };
  }
}
