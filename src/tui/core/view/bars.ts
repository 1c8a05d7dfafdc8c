/**
 * The tab bar (top) and the hint/status bar (bottom). The hint bar is
 * generated from the keymap; in terminal mode it shows the escape chord.
 */

import type { TuiState } from "../../../model/tui.ts";
import type { Frame, Span } from "../frame.ts";
import { bindingOf, hints, type Keymap } from "../keymap.ts";
import type { Rect } from "../layout.ts";
import { stringWidth, truncate } from "../../../util/width.ts";
import { attentionText } from "./sidebar.ts";
import { theme } from "./theme.ts";

export function tabTitles(state: TuiState): string[] {
  return ["Sessions", ...state.tabs.map((t) => t.title)];
}

export function drawTabBar(frame: Frame, r: Rect, state: TuiState): void {
  if (r.width <= 0 || r.height <= 0) return;
  const attention = attentionText(state.sessions);
  const right = attention ? ` ${attention} ` : "";
  const spans: Span[] = [{ text: " lazyshell ", style: theme.title }];
  spans.push(...tabSpans(state, r.width - stringWidth(" lazyshell ") - stringWidth(right)));
  frame.line(r.x, r.y, r.width, spans);
  if (right && stringWidth(right) < r.width) {
    frame.text(r.x + r.width - stringWidth(right), r.y, right, theme.blockedBanner);
  }
}

/**
 * The tabs that fit in `room` columns. When some do not, the first ones and
 * the active one are shown and ` +N ` says how many are hidden (tab, 1–9
 * and the palette still reach them).
 */
function tabSpans(state: TuiState, room: number): Span[] {
  const all = tabTitles(state).map((title, i) => ({
    i,
    text: ` ${i < 9 ? `${i + 1} ` : ""}${title} `,
  }));
  const width = (t: { text: string }[]) => t.reduce((w, s) => w + stringWidth(s.text), 0);
  let shown = all;
  if (width(all) > room) {
    const active = all[state.tab];
    for (let n = all.length - 1; n >= 0; n--) {
      shown = all.slice(0, n);
      if (active && active.i >= n) shown = [...shown.slice(0, Math.max(0, n - 1)), active];
      const more = ` +${all.length - shown.length} `;
      if (width(shown) + stringWidth(more) <= room) break;
    }
  }
  const spans: Span[] = shown.map((t) => ({
    text: t.text,
    style: t.i === state.tab ? theme.tabActive : theme.tabIdle,
  }));
  if (shown.length < all.length) {
    spans.push({ text: ` +${all.length - shown.length} `, style: theme.dim });
  }
  return spans;
}

/** Where the hint bar puts the input cursor, if an input line is open. */
export function drawHintBar(frame: Frame, r: Rect, state: TuiState, keymap: Keymap): void {
  if (r.width <= 0 || r.height <= 0) return;
  const y = r.y;
  const o = state.overlay;
  if (o?.type === "input") {
    const label = o.purpose === "rename"
      ? "Rename: "
      : o.purpose === "search"
      ? "Search (older first): "
      : "Watch pattern (empty disarms): ";
    const x = frame.line(r.x, y, r.width, [{ text: label, style: theme.key }, { text: o.text }]);
    if (x < r.x + r.width) frame.cursor = { x, y };
    return;
  }
  if (o?.type === "confirm-quit") {
    const n = o.running;
    const them = n === 1 ? "it" : "them";
    // Fits 80 columns whole (up to 99 sessions): every key is readable.
    frame.line(r.x, y, r.width, [
      { text: `${n} session${n === 1 ? "" : "s"} still running: `, style: theme.messageError },
      { text: "y", style: theme.key },
      { text: ` end ${them} and quit · ` },
      { text: "d", style: theme.key },
      { text: ` detach (keep ${them}) · ` },
      { text: "n", style: theme.key },
      { text: " cancel" },
    ]);
    return;
  }
  if (o?.type === "confirm-kill") {
    frame.line(r.x, y, r.width, [
      { text: `${o.restart ? "Restart" : "End"} ${o.what}? `, style: theme.messageError },
      { text: "y", style: theme.key },
      {
        text: o.ids
          ? " end them and start them again · "
          : o.restart
          ? " end it and start it again · "
          : " end it · ",
      },
      { text: "n", style: theme.key },
      { text: o.ids ? " keep them" : " keep it" },
    ]);
    return;
  }
  if (o?.type === "worktree-choice") {
    const keys: Span[] = [
      { text: "k", style: theme.key },
      { text: " keep · " },
      { text: "w", style: theme.key },
      { text: " remove · " },
      { text: "b", style: theme.key },
      { text: " remove + branch · " },
      { text: "esc", style: theme.key },
      { text: " cancel" },
    ];
    // The keys always show whole: a long session name is what gets cut.
    const verb = `${o.running ? "End" : "Remove"} `;
    const tail = "; its worktree: ";
    const room = r.width - stringWidth(verb + tail) -
      keys.reduce((w, s) => w + stringWidth(s.text), 0);
    const name = truncate(o.name, Math.max(1, room));
    frame.line(r.x, y, r.width, [{ text: verb + name + tail, style: theme.messageError }, ...keys]);
    return;
  }
  if (o?.type === "limit-policy") {
    const keys: Span[] = [];
    for (const [key, label] of [["o", "off"], ["a", "ask"], ["u", "auto"], ["d", "default"]]) {
      keys.push({ text: key!, style: theme.key }, { text: ` ${label} · ` });
    }
    if (o.group !== null) {
      keys.push({ text: o.scope === "group" ? "s" : "g", style: theme.key }, {
        text: o.scope === "group" ? " this session · " : ` group ${o.group} · `,
      });
    }
    keys.push({ text: "esc", style: theme.key });
    // The keys always show whole: a long session or group name is what gets cut.
    const room = r.width - stringWidth("At limits, : ") -
      keys.reduce((w, k) => w + stringWidth(k.text), 0);
    const which = truncate(o.scope === "group" ? `group ${o.group}` : o.name, Math.max(1, room));
    frame.line(r.x, y, r.width, [{ text: `At limits, ${which}: `, style: theme.key }, ...keys]);
    return;
  }
  if (o?.type === "restart-choice") {
    frame.line(r.x, y, r.width, [
      { text: "Restart: ", style: theme.key },
      { text: "s", style: theme.key },
      { text: " this session · " },
      { text: "g", style: theme.key },
      { text: ` group ${o.group} · ` },
      { text: "esc", style: theme.key },
      { text: " cancel" },
    ]);
    return;
  }
  const spans: Span[] = [];
  if (state.mode === "copy") {
    spans.push({ text: " COPY ", style: theme.copyBadge });
    for (const h of hints(keymap, "copy")) {
      spans.push({ text: " " }, { text: h.key, style: theme.key }, {
        text: " " + h.label,
        style: theme.hint,
      });
    }
    const status = copyStatus(state);
    const end = frame.line(r.x, y, r.width, spans);
    if (status && r.x + r.width - end - 1 >= stringWidth(status)) {
      frame.text(r.x + r.width - stringWidth(status) - 1, y, status, theme.message);
    }
    if (state.message) drawMessage(frame, r, y, end, state, true);
    return;
  }
  if (state.mode === "terminal") {
    const chord = bindingOf(keymap, "unfocus")?.keys[0] ?? "ctrl+]";
    // The way back comes first: it must survive the narrowest screen.
    spans.push({ text: " TERMINAL ", style: theme.terminalBadge });
    spans.push({ text: " " }, { text: chord, style: theme.key });
    spans.push({ text: " back · keys go to the session", style: theme.hint });
  } else {
    // On a plugin tab only the global keys are ours; the tab draws its own help.
    const global = new Set(["help", "palette", "quit"]);
    const shown = state.tab === 0 ? hints(keymap, "navigation") : [
      { key: bindingOf(keymap, "next-tab")?.keys[0] ?? "tab", label: "next tab", action: "" },
      ...hints(keymap, "navigation").filter((h) => global.has(h.action)),
    ];
    for (const h of shown) {
      spans.push({ text: " " }, { text: h.key, style: theme.key }, {
        text: " " + h.label,
        style: theme.hint,
      });
    }
  }
  const end = frame.line(r.x, y, r.width, spans);
  drawMessage(frame, r, y, end, state, state.mode === "terminal");
}

/** Copy mode's right end of the hint bar: the search and its rank, the selection's size. */
function copyStatus(state: TuiState): string {
  const c = state.copy;
  if (!c) return "";
  const parts: string[] = [];
  if (c.anchor !== null) {
    const n = Math.abs(c.anchor - c.cursor) + 1;
    parts.push(`${n} line${n === 1 ? "" : "s"}`);
  }
  if (c.search) {
    const h = c.search.hit;
    parts.push(`/${c.search.query}${h ? ` ${h.index}/${h.total}` : ""}`);
  }
  return parts.join(" · ");
}

/** The status message, right-aligned after the hints (`keep`: never over them). */
function drawMessage(
  frame: Frame,
  r: Rect,
  y: number,
  end: number,
  state: TuiState,
  keep: boolean,
): void {
  const msg = state.message;
  if (!msg) return;
  const style = msg.error ? theme.messageError : theme.message;
  const room = r.x + r.width - end - 1;
  if (room >= stringWidth(msg.text) || keep) {
    // Right-aligned after the hints; the escape chord is never covered.
    const text = truncate(msg.text, Math.max(0, room));
    frame.text(r.x + r.width - stringWidth(text) - 1, y, text, style);
  } else {
    // Too long to sit beside the hints: it takes the bar until it expires (never dropped).
    frame.line(r.x, y, r.width, [{ text: truncate(msg.text, r.width), style }]);
  }
}

/** Which tab a click at column x of the tab bar hits, or null. */
export function tabAt(state: TuiState, x: number): number | null {
  let cx = stringWidth(" lazyshell ");
  const titles = tabTitles(state);
  for (let i = 0; i < titles.length; i++) {
    const w = stringWidth(` ${i < 9 ? `${i + 1} ` : ""}${titles[i]} `);
    if (x >= cx && x < cx + w) return i;
    cx += w;
  }
  return null;
}
