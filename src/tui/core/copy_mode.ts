/**
 * Copy mode and scrollback search as state changes (pure, called by the
 * reducer): a line cursor over the selected session's buffer, a selection
 * from an anchor to the cursor, matches one at a time with n (older) and
 * N (newer), and `y` puts the selected lines on the client's clipboard.
 * The view follows the cursor through the session's scroll offset. Lines
 * count up from the buffer's last row (src/model/search.ts), as the
 * scroll offset does.
 */

import type { CopyState, TuiState } from "../../model/tui.ts";
import type { SearchDirection, SearchHit } from "../../model/search.ts";
import type { UserInput } from "./keys.ts";
import type { Keymap } from "./keymap.ts";
import type { TuiEffect, TuiEvent } from "./events.ts";
import { layout } from "./layout.ts";
import { focusedRect } from "./view/tiles.ts";

/** Leaves copy mode: back to the live screen, as tmux does. */
export function leaveCopy(s: TuiState): TuiState {
  if (s.copy === null && s.mode !== "copy") return s;
  const id = s.copy?.id;
  const scroll = id !== undefined && s.scroll[id] ? { ...s.scroll, [id]: 0 } : s.scroll;
  return { ...s, mode: s.mode === "copy" ? "navigation" : s.mode, copy: null, scroll };
}

/**
 * How many lines one view of the session shows here: its rows, or the
 * pane's when the pane is smaller (it shows the screen's last rows then,
 * view/pane_window.ts).
 */
function viewRows(s: TuiState, id: string): number {
  const rows = s.sessions.find((r) => r.id === id)?.rows ?? 1;
  const pane = focusedRect(s) ?? layout(s.cols, s.rows).pane;
  return Math.max(1, Math.min(rows, pane.height));
}

/** Puts the cursor at `line` (clamped) and scrolls just enough to show it. */
function moveTo(s: TuiState, copy: CopyState, line: number): TuiState {
  const cursor = Math.max(0, Math.min(copy.top, line));
  const rows = viewRows(s, copy.id);
  const max = Math.max(0, copy.top - rows + 1);
  let offset = s.scroll[copy.id] ?? 0;
  if (cursor < offset) offset = cursor;
  if (cursor > offset + rows - 1) offset = cursor - rows + 1;
  offset = Math.max(0, Math.min(max, offset));
  return {
    ...s,
    mode: "copy",
    copy: { ...copy, cursor },
    scroll: { ...s.scroll, [copy.id]: offset },
  };
}

/** The runner's answers: copy mode starts, or a search found something (or nothing). */
export function copyEvent(
  s: TuiState,
  e: Extract<TuiEvent, { type: "copy-started" | "search-result" }>,
): TuiState {
  if (s.tab !== 0 || s.selected !== e.id) return s;
  const mine = s.copy?.id === e.id ? s.copy : null;
  if (e.type === "copy-started") {
    return moveTo(s, { id: e.id, cursor: 0, anchor: null, top: e.top, search: null }, e.cursor);
  }
  if (e.hit === null) {
    const what = mine?.search?.hit ? `No ${e.direction} match` : "No match";
    return { ...s, message: { text: `${what} for ${JSON.stringify(e.query)}`, error: false } };
  }
  const base: CopyState = mine ?? { id: e.id, cursor: 0, anchor: null, top: e.top, search: null };
  const copy = { ...base, top: Math.max(base.top, e.top), search: { query: e.query, hit: e.hit } };
  return moveTo({ ...s, message: null }, copy, e.hit.line);
}

/** A key (or paste) in copy mode. */
export function copyInput(
  s: TuiState,
  copy: CopyState,
  ev: UserInput,
  keymap: Keymap,
  fx: TuiEffect[],
): TuiState {
  if (ev.type !== "key") return s;
  const action = keymap.copy.get(ev.name);
  const page = Math.max(1, viewRows(s, copy.id) - 1);
  switch (action) {
    case "copy-up":
      return moveTo(s, copy, copy.cursor + 1);
    case "copy-down":
      return moveTo(s, copy, copy.cursor - 1);
    case "copy-page-up":
      return moveTo(s, copy, copy.cursor + page);
    case "copy-page-down":
      return moveTo(s, copy, copy.cursor - page);
    case "copy-top":
      return moveTo(s, copy, copy.top);
    case "copy-bottom":
      return moveTo(s, copy, 0);
    case "copy-mark":
      return { ...s, copy: { ...copy, anchor: copy.anchor === null ? copy.cursor : null } };
    case "copy-yank": {
      const anchor = copy.anchor ?? copy.cursor;
      fx.push({
        type: "copy-yank",
        id: copy.id,
        top: Math.max(anchor, copy.cursor),
        bottom: Math.min(anchor, copy.cursor),
      });
      return leaveCopy(s);
    }
    case "copy-search":
      return {
        ...s,
        overlay: { type: "input", purpose: "search", target: copy.id, text: "" },
      };
    case "search-older":
    case "search-newer":
      return next(s, copy, action === "search-older" ? "older" : "newer", fx);
    case "copy-exit":
      return leaveCopy(s);
    default:
      return s;
  }
}

function next(
  s: TuiState,
  copy: CopyState,
  direction: SearchDirection,
  fx: TuiEffect[],
): TuiState {
  const search = copy.search;
  if (!search) return { ...s, message: { text: "No search yet: / searches", error: false } };
  const hit: SearchHit | null = search.hit;
  fx.push({
    type: "search",
    id: copy.id,
    query: search.query,
    from: hit ? { line: hit.line, col: hit.col } : { line: copy.cursor, col: -1 },
    direction,
  });
  return s;
}

/** Enter in the search line: from the copy cursor when copy mode runs, else from the bottom. */
export function searchEffect(s: TuiState, id: string, query: string): TuiEffect {
  const copy = s.copy?.id === id ? s.copy : null;
  return {
    type: "search",
    id,
    query,
    from: copy ? { line: copy.cursor, col: -1 } : null,
    direction: "older",
  };
}

/** A wheel turn or a click in the pane moves the copy cursor there. */
export function copyMouse(
  s: TuiState,
  copy: CopyState,
  ev: { kind: string; button: number; y: number },
  paneY: number,
): TuiState {
  if (ev.kind === "wheel") return moveTo(s, copy, copy.cursor + (ev.button < 0 ? 3 : -3));
  if (ev.kind !== "press" || ev.button !== 0) return s;
  const offset = s.scroll[copy.id] ?? 0;
  return moveTo(s, copy, offset + viewRows(s, copy.id) - 1 - (ev.y - paneY));
}
