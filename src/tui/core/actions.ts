/**
 * The TUI's keymap actions as state changes plus effects (used by keys,
 * the palette and overlays). Pure, like the reducer that calls them.
 */

import { isLimit } from "../../limits/limit_text.ts";
import type { TuiState } from "../../model/tui.ts";
import type { SessionView } from "../../model/session.ts";
import type { KeyEvent } from "./keys.ts";
import { layout } from "./layout.ts";
import { needsYou, sessionOrder } from "./view/sidebar.ts";
import type { TuiEffect } from "./events.ts";
import { answerable } from "./view/answer.ts";
import { tileAction } from "./tile_actions.ts";
import { listRows, moveSelection, pick } from "./remote_rows.ts";

function selectedRow(s: TuiState): SessionView | undefined {
  return s.sessions.find((r) => r.id === s.selected);
}

/** Runs one keymap action (also used by the palette). */
export function act(s: TuiState, action: string, key: KeyEvent | null, fx: TuiEffect[]): TuiState {
  const row = selectedRow(s);
  const tabs = s.tabs.length + 1;
  switch (action) {
    case "down":
      return moveSelection(s, 1); // over the other hosts' rows too (remote_rows.ts)
    case "up":
      return moveSelection(s, -1);
    case "focus":
      if (!row || row.status !== "running") return s;
      if (s.scroll[row.id]) fx.push({ type: "scroll", id: row.id, delta: -s.scroll[row.id]! });
      return { ...s, mode: "terminal", tab: 0 };
    case "new":
      fx.push({ type: "create" });
      return s;
    case "new-agent":
      fx.push({ type: "new-agent-form" });
      return s;
    case "kill":
      if (!row) return s;
      if (row.worktree !== null) {
        const running = row.status === "running";
        const { branch } = row.worktree;
        return {
          ...s,
          overlay: { type: "worktree-choice", target: row.id, name: row.name, branch, running },
        };
      }
      fx.push({ type: row.status === "running" ? "kill" : "remove", id: row.id });
      return s;
    case "rename":
      if (!row) return s;
      return {
        ...s,
        overlay: { type: "input", purpose: "rename", target: row.id, text: row.name },
      };
    case "watch":
      if (!row) return s;
      return {
        ...s,
        overlay: { type: "input", purpose: "watch", target: row.id, text: row.watcher ?? "" },
      };
    case "restart":
      if (!row) return s;
      if (row.group !== null) {
        return { ...s, overlay: { type: "restart-choice", target: row.id, group: row.group } };
      }
      fx.push({ type: "restart", ids: [row.id] });
      return s;
    case "restart-group":
      if (!row) return s;
      fx.push({
        type: "restart",
        ids: row.group === null
          ? [row.id]
          : s.sessions.filter((r) => r.group === row.group).map((r) => r.id),
      });
      return s;
    case "next-blocked":
      return nextBlocked(s);
    case "next-limited":
      return nextLimited(s);
    case "resume-limit":
      if (!row || !isLimit(row.agentStatus)) {
        return { ...s, message: { text: "Not at a usage limit", error: false } };
      }
      fx.push({ type: "resume-limit", id: row.id });
      return s;
    case "cancel-limit":
      if (!row || !isLimit(row.agentStatus)) {
        return { ...s, message: { text: "Not at a usage limit", error: false } };
      }
      fx.push({ type: "cancel-limit", id: row.id });
      return s;
    case "limit-policy":
      if (!row) return s;
      return {
        ...s,
        overlay: {
          type: "limit-policy",
          target: row.id,
          name: row.name,
          group: row.group,
          scope: "session",
        },
      };
    case "search":
      if (!row) return s;
      return { ...s, overlay: { type: "input", purpose: "search", target: row.id, text: "" } };
    case "copy-mode":
      if (!row) return s;
      fx.push({ type: "copy-start", id: row.id });
      return { ...s, tab: 0 };
    case "restore":
      fx.push({ type: "restore-offer" });
      return s;
    case "scroll-up":
    case "scroll-down": {
      if (!row) return s;
      const page = Math.max(1, layout(s.cols, s.rows).pane.height - 1);
      fx.push({ type: "scroll", id: row.id, delta: action === "scroll-up" ? page : -page });
      return s;
    }
    case "help":
      return { ...s, overlay: { type: "help" } };
    case "palette":
      return { ...s, overlay: { type: "palette", query: "", index: 0 } };
    case "next-tab":
      return { ...s, tab: (s.tab + 1) % tabs };
    case "prev-tab":
      return { ...s, tab: (s.tab + tabs - 1) % tabs };
    case "goto-tab": {
      const n = Number(key?.name) - 1;
      return Number.isInteger(n) && n >= 0 && n < tabs ? { ...s, tab: n } : s;
    }
    case "answer":
      if (!row) return s;
      if (!answerable(row)) {
        return {
          ...s,
          message: {
            text: row.agentStatus?.state === "blocked"
              ? `${row.name}: its question could not be read; enter types into it`
              : `${row.name} is not waiting for an answer`,
            error: false,
          },
        };
      }
      return { ...s, overlay: { type: "answer", target: row.id, prompt: row.prompt } };
    case "inbox":
      return { ...s, overlay: { type: "inbox", index: 0 } };
    case "tiles":
    case "pin":
    case "tile-blocked":
    case "zoom":
      return tileAction(s, action);
    case "detach":
      fx.push({ type: "detach" });
      return s;
    case "quit": {
      const running = s.sessions.filter((r) => r.status === "running").length;
      if (running === 0) {
        fx.push({ type: "quit" });
        return s;
      }
      return { ...s, overlay: { type: "confirm-quit", running } };
    }
    default:
      return s;
  }
}

/**
 * B: the next session that needs you — blocked, or its turn failed — after
 * the selected one, in list order, cycling (N3).
 */
/** The next session stopped at a usage limit (docs/limits.md), in list order, cycling. */
function nextLimited(s: TuiState): TuiState {
  const order = sessionOrder(s.sessions);
  const i = order.findIndex((r) => r.id === s.selected);
  for (let k = 1; k <= order.length; k++) {
    const r = order[(i + k + order.length) % order.length]!;
    if (r.status === "running" && isLimit(r.agentStatus)) return { ...s, selected: r.id, tab: 0 };
  }
  return { ...s, message: { text: "No session at a usage limit", error: false } };
}

function nextBlocked(s: TuiState): TuiState {
  // The other hosts' rows too (remote_rows.ts), after the local ones.
  const order = listRows(s);
  const i = order.findIndex((r) => r.id === (s.remote ?? s.selected));
  for (let k = 1; k <= order.length; k++) {
    const r = order[(i + k + order.length) % order.length]!;
    if (needsYou(r)) return { ...pick(s, r.id), tab: 0 };
  }
  return { ...s, message: { text: "No blocked or failed session", error: false } };
}
