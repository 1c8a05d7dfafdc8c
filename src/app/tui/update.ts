/**
 * update(state, event, keymap) → {state, effects}: the TUI's one reducer
 * (STYLE.md 3, Bubble Tea's model). Pure: no I/O, no clock (time arrives
 * in `tick` events); effects are data the runner executes.
 *
 * Invariants: `selected` is null only when there are no sessions; the
 * session being viewed (Sessions tab, selected) never keeps an unseen ✓ or
 * ● mark; a `focus` effect follows every change of what the user looks at.
 */

import type { Overlay, SessionRow, TuiState } from "../../model/tui.ts";
import type { KeyEvent, MouseEvent, UserInput } from "../../tui/keys.ts";
import type { Keymap } from "../../tui/keymap.ts";
import { layout } from "../../tui/layout.ts";
import { tabAt } from "../../tui/view/bars.ts";
import { anythingSpins } from "../../tui/view/marker.ts";
import { paletteItems } from "../../tui/view/overlays.ts";
import { sessionOrder, sidebarLines } from "../../tui/view/sidebar.ts";
import type { TuiEffect, TuiEvent } from "./events.ts";

export interface Update {
  readonly state: TuiState;
  readonly effects: readonly TuiEffect[];
}

/** Keys that reach a plugin tab only while it captures (P3). */
const GLOBAL_ACTIONS = new Set(["quit", "help", "palette", "next-tab", "prev-tab", "goto-tab"]);
const WHEEL_LINES = 3;

export function update(state: TuiState, event: TuiEvent, keymap: Keymap): Update {
  const effects: TuiEffect[] = [];
  const next = reduce(state, event, keymap, effects);
  return { state: settle(state, next, effects), effects };
}

function reduce(s: TuiState, e: TuiEvent, keymap: Keymap, fx: TuiEffect[]): TuiState {
  switch (e.type) {
    case "input":
      return input(s, e.input, keymap, fx);
    case "resize": {
      if (e.cols === s.cols && e.rows === s.rows) return s;
      const pane = layout(e.cols, e.rows).pane;
      fx.push({
        type: "resize-sessions",
        cols: Math.max(2, pane.width),
        rows: Math.max(2, pane.height),
      });
      return { ...s, cols: e.cols, rows: e.rows };
    }
    case "sessions":
      return sessions(s, e.sessions);
    case "activity": {
      const row = s.sessions.find((r) => r.id === e.id);
      if (!row || row.agent !== null || s.activity[e.id] || viewing(s) === e.id) return s;
      return { ...s, activity: { ...s.activity, [e.id]: true } };
    }
    case "created":
      if (!s.sessions.some((r) => r.id === e.id)) return s;
      return { ...s, selected: e.id, mode: "terminal", tab: 0, overlay: null };
    case "select":
      return s.sessions.some((r) => r.id === e.id) ? { ...s, selected: e.id } : s;
    case "watched": {
      if (!s.sessions.some((r) => r.id === e.id)) return s;
      const watch = { ...s.watch };
      if (e.pattern) watch[e.id] = e.pattern;
      else delete watch[e.id];
      return { ...s, watch };
    }
    case "scrolled":
      return { ...s, scroll: { ...s.scroll, [e.id]: Math.max(0, e.offset) } };
    case "tick":
      return {
        ...s,
        now: e.now,
        spin: anythingSpins(s) && !s.reduceMotion ? s.spin + 1 : s.spin,
      };
    case "tabs":
      return { ...s, tabs: e.tabs, tab: Math.min(s.tab, e.tabs.length) };
    case "message":
      return { ...s, message: { text: e.text, error: e.error } };
    case "message-expired":
      return s.message?.text === e.text ? { ...s, message: null } : s;
  }
}

/** The session the user is looking at right now, if any. */
export function viewing(s: TuiState): string | null {
  return s.tab === 0 && s.overlay?.type !== "help" ? s.selected : null;
}

/** Post-conditions of every update: a valid selection, seen marks cleared, focus reported. */
function settle(prev: TuiState, s: TuiState, fx: TuiEffect[]): TuiState {
  if (s.selected === null || !s.sessions.some((r) => r.id === s.selected)) {
    const order = sessionOrder(s.sessions);
    const old = sessionOrder(prev.sessions).findIndex((r) => r.id === prev.selected);
    const pick = order[Math.min(Math.max(0, old), order.length - 1)] ?? null;
    s = { ...s, selected: pick?.id ?? null };
  }
  const row = s.sessions.find((r) => r.id === s.selected);
  if (s.mode === "terminal" && (!row || row.status !== "running" || s.tab !== 0)) {
    s = { ...s, mode: "navigation" };
  }
  const seen = viewing(s);
  if (seen !== null && (s.unseenDone[seen] || s.activity[seen])) {
    s = { ...s, unseenDone: without(s.unseenDone, seen), activity: without(s.activity, seen) };
  }
  const focusOf = (t: TuiState) => [t.tab === 0 ? t.selected : null, t.mode === "terminal"];
  const [a, b] = [focusOf(prev), focusOf(s)];
  if (a[0] !== b[0] || a[1] !== b[1]) {
    fx.push({ type: "focus", selected: b[0] as string | null, terminal: b[1] as boolean });
  }
  return s;
}

function without<T>(record: Readonly<Record<string, T>>, id: string): Record<string, T> {
  if (!(id in record)) return record as Record<string, T>;
  const out = { ...record };
  delete out[id];
  return out;
}

function sessions(s: TuiState, rows: readonly SessionRow[]): TuiState {
  const before = new Map(s.sessions.map((r) => [r.id, r]));
  const ids = new Set(rows.map((r) => r.id));
  let unseenDone: Record<string, true> = {};
  for (const id of Object.keys(s.unseenDone)) if (ids.has(id)) unseenDone[id] = true;
  let message = s.message;
  for (const row of rows) {
    const old = before.get(row.id)?.agentStatus;
    const now = row.agentStatus;
    const entered = (state: string) =>
      now?.state === state && (old?.state !== state || old.seq !== now.seq);
    if (viewing(s) === row.id) continue;
    if (entered("done")) {
      unseenDone = { ...unseenDone, [row.id]: true };
      message = { text: `✓ ${row.name}: done`, error: false };
    }
    // The in-app side of a notification (N1): who needs you and why; B jumps there.
    if (entered("blocked") && before.has(row.id)) {
      const why = now?.msg ?? (now?.kind ? `needs you: ${now.kind}` : "needs you");
      message = { text: `‼ ${row.name}: ${why} · B jumps`, error: true };
    }
  }
  const keep = <T>(r: Readonly<Record<string, T>>) =>
    Object.fromEntries(Object.entries(r).filter(([id]) => ids.has(id)));
  return {
    ...s,
    sessions: rows,
    message,
    unseenDone,
    activity: keep(s.activity),
    scroll: keep(s.scroll),
    watch: keep(s.watch),
  };
}

function input(s: TuiState, ev: UserInput, keymap: Keymap, fx: TuiEffect[]): TuiState {
  if (s.overlay) return overlayInput(s, s.overlay, ev, keymap, fx);
  if (ev.type === "mouse") return mouse(s, ev, fx);
  if (s.mode === "terminal" && s.selected) {
    // Typing brings a scrolled-back view to the live screen (as tmux leaves copy mode).
    const back = s.scroll[s.selected] ?? 0;
    if (back > 0) fx.push({ type: "scroll", id: s.selected, delta: -back });
    if (ev.type === "paste") {
      fx.push({ type: "paste", id: s.selected, text: ev.text });
      return s;
    }
    if (keymap.terminal.get(ev.name) === "unfocus") return { ...s, mode: "navigation" };
    fx.push({ type: "send-key", id: s.selected, key: ev });
    return s;
  }
  if (s.tab > 0) {
    const tab = s.tabs[s.tab - 1];
    if (ev.type === "paste") {
      fx.push({ type: "tab-paste", tab: s.tab, text: ev.text });
      return s;
    }
    const action = keymap.navigation.get(ev.name);
    if (!tab?.capturing && action !== undefined && GLOBAL_ACTIONS.has(action)) {
      return act(s, action, ev, fx);
    }
    fx.push({ type: "tab-key", tab: s.tab, key: ev });
    return s;
  }
  if (ev.type === "paste") return s;
  const action = keymap.navigation.get(ev.name);
  const cleared = s.message ? { ...s, message: null } : s;
  if (action === undefined) return cleared;
  return act(cleared, action, ev, fx);
}

function move(s: TuiState, step: number): TuiState {
  const order = sessionOrder(s.sessions);
  if (order.length === 0) return s;
  const i = order.findIndex((r) => r.id === s.selected);
  const j = Math.min(order.length - 1, Math.max(0, i + step));
  return { ...s, selected: order[j]!.id };
}

function selectedRow(s: TuiState): SessionRow | undefined {
  return s.sessions.find((r) => r.id === s.selected);
}

/** Runs one keymap action (also used by the palette). */
export function act(s: TuiState, action: string, key: KeyEvent | null, fx: TuiEffect[]): TuiState {
  const row = selectedRow(s);
  const tabs = s.tabs.length + 1;
  switch (action) {
    case "down":
      return move(s, 1);
    case "up":
      return move(s, -1);
    case "focus":
      if (!row || row.status !== "running") return s;
      if (s.scroll[row.id]) fx.push({ type: "scroll", id: row.id, delta: -s.scroll[row.id]! });
      return { ...s, mode: "terminal", tab: 0 };
    case "new":
      fx.push({ type: "create" });
      return s;
    case "kill":
      if (!row) return s;
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
        overlay: { type: "input", purpose: "watch", target: row.id, text: s.watch[row.id] ?? "" },
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

/** B: the next blocked session after the selected one, in list order, cycling (N3). */
function nextBlocked(s: TuiState): TuiState {
  const order = sessionOrder(s.sessions);
  const i = order.findIndex((r) => r.id === s.selected);
  for (let k = 1; k <= order.length; k++) {
    const r = order[(i + k + order.length) % order.length]!;
    if (r.status === "running" && r.agentStatus?.state === "blocked") {
      return { ...s, selected: r.id, tab: 0 };
    }
  }
  return { ...s, message: { text: "No blocked session", error: false } };
}

function mouse(s: TuiState, ev: MouseEvent, fx: TuiEffect[]): TuiState {
  const l = layout(s.cols, s.rows);
  const inside = (r: { x: number; y: number; width: number; height: number }) =>
    ev.x >= r.x && ev.x < r.x + r.width && ev.y >= r.y && ev.y < r.y + r.height;
  if (ev.kind === "press" && inside(l.tabBar)) {
    const t = tabAt(s, ev.x);
    return t === null ? s : { ...s, tab: t };
  }
  if (s.tab > 0) {
    if (!inside(l.body) || (ev.kind !== "press" && ev.kind !== "wheel")) return s;
    fx.push({
      type: "tab-mouse",
      tab: s.tab,
      event: {
        kind: ev.kind === "wheel" ? "wheel" : "click",
        x: ev.x - l.body.x,
        y: ev.y - l.body.y,
        button: ev.button,
      },
    });
    return s;
  }
  if (s.mode === "terminal" && s.selected && inside(l.pane)) {
    fx.push({ type: "mouse", id: s.selected, event: ev, x: ev.x - l.pane.x, y: ev.y - l.pane.y });
    return s;
  }
  if (ev.kind === "press" && ev.button === 0 && inside(l.sidebar)) {
    const id = sidebarLines(s, l.sidebar.width, l.sidebar.height).ids[ev.y - l.sidebar.y];
    return id ? { ...s, selected: id, mode: "navigation" } : s;
  }
  if (ev.kind === "wheel" && s.selected && (inside(l.pane) || inside(l.sidebar))) {
    fx.push({ type: "scroll", id: s.selected, delta: ev.button < 0 ? WHEEL_LINES : -WHEEL_LINES });
  }
  return s;
}

function overlayInput(
  s: TuiState,
  o: Overlay,
  ev: UserInput,
  keymap: Keymap,
  fx: TuiEffect[],
): TuiState {
  if (ev.type === "mouse") return s;
  const close = { ...s, overlay: null };
  const name = ev.type === "key" ? ev.name : "";
  switch (o.type) {
    case "help":
      return ev.type === "key" && ["esc", "?", "q", "enter"].includes(name) ? close : s;
    case "confirm-quit":
      if (name === "y" || name === "Y") fx.push({ type: "quit" });
      return name === "y" || name === "Y" || name === "n" || name === "N" || name === "esc"
        ? close
        : s;
    case "restart-choice":
      if (name === "s") fx.push({ type: "restart", ids: [o.target] });
      if (name === "g") {
        const ids = s.sessions.filter((r) => r.group === o.group).map((r) => r.id);
        fx.push({ type: "restart", ids });
      }
      return ["s", "g", "esc"].includes(name) ? close : s;
    case "input": {
      if (ev.type === "paste") {
        return { ...s, overlay: { ...o, text: o.text + ev.text.replace(/[\r\n]+/g, " ") } };
      }
      if (name === "esc") return close;
      if (name === "enter") {
        const text = o.text.trim();
        if (o.purpose === "rename") {
          if (text) fx.push({ type: "rename", id: o.target, name: text });
          return close;
        }
        // state.watch follows the watchers engine ("watched"), which may refuse a pattern.
        fx.push({ type: "watch", id: o.target, pattern: text || null });
        return close;
      }
      return { ...s, overlay: { ...o, text: edit(o.text, ev) } };
    }
    case "palette": {
      if (ev.type === "paste") return s;
      const items = paletteItems(s, keymap);
      if (name === "esc") return close;
      if (name === "up" || name === "ctrl+p") {
        return { ...s, overlay: { ...o, index: Math.max(0, o.index - 1) } };
      }
      if (name === "down" || name === "ctrl+n" || name === "tab") {
        return { ...s, overlay: { ...o, index: Math.min(items.length - 1, o.index + 1) } };
      }
      if (name === "enter") {
        const item = items[o.index];
        if (!item) return close;
        if (keymap.bindings.some((b) => b.action === item.name) || item.name === "restart-group") {
          return act(close, item.name, null, fx);
        }
        fx.push({ type: "tab-command", tab: item.tab ?? s.tab, name: item.command ?? item.name });
        return close;
      }
      const query = edit(o.query, ev);
      return query === o.query ? s : { ...s, overlay: { ...o, query, index: 0 } };
    }
  }
}

/** Line editing for the input line and the palette: text, backspace, ctrl+u, ctrl+w. */
function edit(text: string, key: KeyEvent): string {
  if (key.name === "backspace" || key.name === "ctrl+h") return [...text].slice(0, -1).join("");
  if (key.name === "ctrl+u") return "";
  if (key.name === "ctrl+w") return text.replace(/\S+\s*$/, "");
  return key.text ? text + key.text : text;
}
