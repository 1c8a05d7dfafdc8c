/**
 * update(state, event, keymap) → {state, effects}: the TUI's one reducer
 * (docs/architecture.md, Conventions; Bubble Tea's model). Pure: no I/O, no clock (time arrives
 * in `tick` events); effects are data the runner executes.
 *
 * Invariants: `selected` is null only when there are no sessions; the
 * session being viewed (Sessions tab, selected) never keeps an unseen ✓ or
 * ● mark; a `focus` effect follows every change of what the user looks at.
 */

import { isLimit, LIMIT_MARKER, limitNotice } from "../../limits/limit_text.ts";
import { errorReason } from "../../model/agent.ts";
import type { TuiState } from "../../model/tui.ts";
import type { SessionView } from "../../model/session.ts";
import type { MouseEvent, UserInput } from "./keys.ts";
import type { Keymap } from "./keymap.ts";
import { layout } from "./layout.ts";
import { tabAt } from "./view/bars.ts";
import { anythingSpins } from "./view/marker.ts";
import { sessionOrder, sidebarLines } from "./view/sidebar.ts";
import { act } from "./actions.ts";
import type { TuiEffect, TuiEvent } from "./events.ts";
import { overlayInput } from "./overlay_input.ts";
import { askedText } from "./view/answer.ts";
import { copyEvent, copyInput, copyMouse, leaveCopy } from "./copy_mode.ts";
import { settleTiles, tileMouse } from "./tile_actions.ts";
import { isTiled } from "./view/tiles.ts";
import { offerRestore } from "./restore_offer.ts";
import { agentsFound, openNewAgent } from "./new_agent.ts";
import { pick, remoteAction, withHosts } from "./remote_rows.ts";

/** The usage-limit keys, said where a limit is announced (docs/limits.md). */
export const LIMIT_KEYS = "L jumps · U resume · C cancel · P policy";

export interface Update {
  readonly state: TuiState;
  readonly effects: readonly TuiEffect[];
}

/**
 * Keys that reach a plugin tab only while it captures (P3): the ones that mean "leave" (detach,
 * quit, another tab) work on every tab.
 */
const GLOBAL_ACTIONS = new Set([
  "quit",
  "detach",
  "help",
  "palette",
  "next-tab",
  "prev-tab",
  "goto-tab",
]);
const WHEEL_LINES = 3;

export function update(state: TuiState, event: TuiEvent, keymap: Keymap): Update {
  const effects: TuiEffect[] = [];
  const next = reduce(state, event, keymap, effects);
  // Every state comes out of settle(): an event that changed nothing (a key typed into the
  // session, most often) leaves it settled, with nothing to check again.
  return { state: next === state ? state : settle(state, next, effects), effects };
}

function reduce(s: TuiState, e: TuiEvent, keymap: Keymap, fx: TuiEffect[]): TuiState {
  switch (e.type) {
    case "input":
      return input(s, e.input, keymap, fx);
    case "resize":
      // The sessions follow in settleTiles (each tile its own size).
      if (e.cols === s.cols && e.rows === s.rows) return s;
      return { ...s, cols: e.cols, rows: e.rows };
    case "sessions":
      return sessions(s, e.sessions);
    case "created":
      if (!s.sessions.some((r) => r.id === e.id)) return s;
      return { ...s, selected: e.id, mode: "terminal", tab: 0, overlay: null };
    case "confirm-kill":
      if (!s.sessions.some((r) => r.id === e.id)) return s;
      return {
        ...s,
        overlay: {
          type: "confirm-kill",
          target: e.id,
          what: e.what,
          ...(e.restart ? { restart: true } : {}),
          ...(e.ids ? { ids: e.ids } : {}),
        },
      };
    case "resume": {
      const selected = e.selected !== null && s.sessions.some((r) => r.id === e.selected)
        ? e.selected
        : s.selected;
      return { ...s, selected, tab: e.tab >= 0 && e.tab <= s.tabs.length ? e.tab : s.tab };
    }
    case "select":
      return s.sessions.some((r) => r.id === e.id) ? { ...s, selected: e.id, remote: null } : s;
    case "copy-started":
    case "search-result":
      return copyEvent(s, e);
    case "new-agent-form":
      return openNewAgent(s, e.folder, e.agents, e.branchPrefix);
    case "agent-choices":
      return agentsFound(s, e.agents);
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
    case "hosts":
      return withHosts(s, e.hosts);
    case "message":
      return { ...s, message: { text: e.text, error: e.error } };
    case "message-expired":
      return s.message?.text === e.text ? { ...s, message: null } : s;
    case "restore-offer":
      return offerRestore(s, e.items, e.problem);
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
  // Typing or copying is into a local session: a remote row selected gives way.
  if (s.remote !== null && s.mode !== "navigation") s = { ...s, remote: null };
  const row = s.sessions.find((r) => r.id === s.selected);
  if (s.mode === "terminal" && (!row || row.status !== "running" || s.tab !== 0)) {
    s = { ...s, mode: "navigation" };
  }
  // Copy mode belongs to the session on screen; anything else ends it.
  if (s.mode === "copy" || s.copy !== null) {
    // Tiles show several sessions at once: copy mode needs the one pane (or a zoomed tile).
    const tiledOut = isTiled(s) && !s.zoomed;
    if (s.mode !== "copy" || !row || s.tab !== 0 || s.copy?.id !== row.id || tiledOut) {
      s = leaveCopy(s);
    }
  }
  s = settleTiles(prev, s, fx);
  const seen = viewing(s);
  if (seen !== null && (s.unseenDone[seen] || s.activity[seen])) {
    s = { ...s, unseenDone: without(s.unseenDone, seen), activity: without(s.activity, seen) };
  }
  // The selected session stays the focus on every tab: the plugin tabs (Changes, Env, Stats)
  // show the session selected in the list (docs/plugin-protocol.md, `selected`, `env`).
  const focusOf = (t: TuiState) => [t.selected, t.mode === "terminal"];
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

/** The same session as drawn: everything but the output clock (which only sets ● marks). */
function sameView(a: SessionView, b: SessionView): boolean {
  if (a === b) return true;
  for (const key of Object.keys(a) as (keyof SessionView)[]) {
    if (key === "outputAt" || a[key] === b[key]) continue;
    if (key === "agentStatus" || key === "turn") {
      if (!shallowEqual(a[key], b[key])) return false;
    } else return false;
  }
  return true;
}

function shallowEqual(a: object | null, b: object | null): boolean {
  if (a === null || b === null) return a === b;
  const ka = Object.keys(a) as (keyof typeof a)[];
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/**
 * The same screen as `a`: `b` differs at most in its sessions' output
 * clocks (and the ● marks they set are drawn from `activity`, compared
 * here too). The app then repaints only the session pane.
 */
export function sameDrawing(a: TuiState | null, b: TuiState): boolean {
  if (a === b) return true;
  if (a === null) return false;
  for (const key of Object.keys(a) as (keyof TuiState)[]) {
    if (key !== "sessions" && a[key] !== b[key]) return false;
  }
  return a.sessions.length === b.sessions.length &&
    a.sessions.every((v, i) => sameView(v, b.sessions[i]!));
}

function sessions(s: TuiState, views: readonly SessionView[]): TuiState {
  const identical = views.length === s.sessions.length &&
    views.every((v, i) => sameView(v, s.sessions[i]!) && v.outputAt === s.sessions[i]!.outputAt);
  if (identical) return s;
  const before = new Map(s.sessions.map((r) => [r.id, r]));
  const seen = viewing(s);
  // ● (A1): a plain session that printed since this client last looked at it.
  let activity = s.activity;
  for (const view of views) {
    const old = before.get(view.id);
    if (
      old && view.outputAt > old.outputAt && view.agent === null && seen !== view.id &&
      !activity[view.id]
    ) {
      activity = { ...activity, [view.id]: true };
    }
  }
  // Only output clocks moved: nothing else to work out.
  const same = views.length === s.sessions.length &&
    views.every((v, i) => sameView(v, s.sessions[i]!));
  if (same) return { ...s, activity, sessions: views };
  const ids = new Set(views.map((r) => r.id));
  let unseenDone: Record<string, true> = {};
  for (const id of Object.keys(s.unseenDone)) if (ids.has(id)) unseenDone[id] = true;
  let message = s.message;
  for (const row of views) {
    const old = before.get(row.id)?.agentStatus;
    const now = row.agentStatus;
    const entered = (state: string) =>
      now?.state === state && (old?.state !== state || old.seq !== now.seq);
    if (seen === row.id) continue;
    // A first status of `done` is an earlier turn's, redrawn by a resumed agent: no news.
    const resumed = before.has(row.id) && (old === null || old === undefined);
    if (entered("done") && !resumed) {
      unseenDone = { ...unseenDone, [row.id]: true };
      message = { text: `✓ ${row.name}: done`, error: false };
    }
    // The in-app side of a notification (N1): who needs you and why; B (L) jumps there.
    if (entered("blocked") && before.has(row.id)) {
      const why = askedText(row);
      message = { text: `‼ ${row.name}: ${why} · B jumps`, error: true };
    }
    // A failed turn, once (its reason being filled in later is not news).
    if (now?.state === "error" && old?.state !== "error" && before.has(row.id)) {
      const why = errorReason(now.kind, now.msg);
      message = isLimit(now)
        ? {
          text: `${LIMIT_MARKER} ${limitNotice(row.name, now, now.since)} · ${LIMIT_KEYS}`,
          error: true,
        }
        : { text: `✗ ${row.name}: failed${why ? ` — ${why}` : ""} · B jumps`, error: true };
    }
  }
  const keep = <T>(r: Readonly<Record<string, T>>) =>
    Object.fromEntries(Object.entries(r).filter(([id]) => ids.has(id)));
  return {
    ...s,
    sessions: views,
    message,
    unseenDone,
    activity: keep(activity),
    scroll: keep(s.scroll),
  };
}

function input(s: TuiState, ev: UserInput, keymap: Keymap, fx: TuiEffect[]): TuiState {
  if (s.overlay) return overlayInput(s, s.overlay, ev, keymap, fx);
  if (ev.type === "mouse") return mouse(s, ev, fx);
  if (s.mode === "copy" && s.copy) return copyInput(s, s.copy, ev, keymap, fx);
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
  return remoteAction(cleared, action, fx) ?? act(cleared, action, ev, fx);
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
  if (s.mode === "copy" && s.copy && inside(l.pane)) return copyMouse(s, s.copy, ev, l.pane.y);
  if (isTiled(s) && inside(l.pane)) return tileMouse(s, ev, fx);
  if (s.mode === "terminal" && s.selected && inside(l.pane)) {
    fx.push({ type: "mouse", id: s.selected, event: ev, x: ev.x - l.pane.x, y: ev.y - l.pane.y });
    return s;
  }
  if (ev.kind === "press" && ev.button === 0 && inside(l.sidebar)) {
    const id = sidebarLines(s, l.sidebar.width, l.sidebar.height).ids[ev.y - l.sidebar.y];
    return id ? { ...pick(s, id), mode: "navigation" } : s;
  }
  if (ev.kind === "wheel" && s.selected && (inside(l.pane) || inside(l.sidebar))) {
    fx.push({ type: "scroll", id: s.selected, delta: ev.button < 0 ? WHEEL_LINES : -WHEEL_LINES });
  }
  return s;
}
