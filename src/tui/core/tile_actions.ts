/**
 * The tiled view's keymap actions (docs/tui.md, Several at once) and what
 * every update keeps true of it. Pure, like the reducer that calls them.
 */

import type { TuiState } from "../../model/tui.ts";
import type { TuiEffect } from "./events.ts";
import { sessionSize } from "./layout.ts";
import { needsYou, sessionOrder } from "./view/sidebar.ts";
import { MAX_TILES, tileAt, tiledIds, tileSizes } from "./view/tiles_layout.ts";
import type { MouseEvent } from "./keys.ts";

const note = (s: TuiState, text: string, error = false): TuiState => ({
  ...s,
  message: { text, error },
});

/** `t` tiles, `p` pins, `T` tiles the blocked, `z` zooms. */
export function tileAction(s: TuiState, action: string): TuiState {
  const row = s.sessions.find((r) => r.id === s.selected);
  switch (action) {
    case "tiles":
      if (s.tiles === "pinned") return { ...s, tiles: "off", zoomed: false };
      if (!row) return s;
      return { ...s, tiles: "pinned", zoomed: false, tab: 0 };
    case "pin": {
      if (!row) return s;
      if (s.pinned.includes(row.id)) {
        return note(
          { ...s, pinned: s.pinned.filter((id) => id !== row.id) },
          `Unpinned ${row.name}`,
        );
      }
      if (s.pinned.length >= MAX_TILES) {
        return note(s, `At most ${MAX_TILES} tiles: unpin one first`, true);
      }
      const pinned = [...s.pinned, row.id];
      return note({ ...s, pinned }, `Pinned ${row.name} (${pinned.length} of ${MAX_TILES})`);
    }
    case "tile-blocked": {
      if (s.tiles === "blocked") return { ...s, tiles: "off", zoomed: false };
      const blocked = sessionOrder(s.sessions).filter(needsYou);
      if (blocked.length === 0) return note(s, "No blocked or failed session");
      const selected = blocked.some((r) => r.id === s.selected) ? s.selected : blocked[0]!.id;
      return { ...s, tiles: "blocked", zoomed: false, tab: 0, selected };
    }
    case "zoom":
      if (s.tiles === "off" || !row) return note(s, "Nothing to zoom: the view is not tiled");
      return { ...s, zoomed: !s.zoomed };
    default:
      return s;
  }
}

/** The PTY sizes this state asks for, as a comparable key. */
function sizesKey(s: TuiState): string {
  const pane = sessionSize(s.cols, s.rows);
  const tiles = tileSizes(s).map((t) => `${t.id}=${t.cols}x${t.rows}`);
  return `${pane.cols}x${pane.rows} ${tiles.join(" ")}`;
}

/** Which sessions are tiled and how, whatever the terminal's size. */
function tilesKey(s: TuiState): string {
  return `${s.tiles}${s.zoomed ? " zoomed" : ""} ${tiledIds(s).join(" ")}`;
}

/**
 * After every update: pins of removed sessions go, a zoom ends with the
 * tiles, and when the sizes the sessions should have changed (the screen
 * was resized, a tile came or went) one `resize-sessions` says them all.
 */
export function settleTiles(prev: TuiState, s: TuiState, fx: TuiEffect[]): TuiState {
  if (s.pinned.some((id) => !s.sessions.some((r) => r.id === id))) {
    s = { ...s, pinned: s.pinned.filter((id) => s.sessions.some((r) => r.id === id)) };
  }
  if (s.zoomed && s.tiles === "off") s = { ...s, zoomed: false };
  const resized = prev.cols !== s.cols || prev.rows !== s.rows;
  if (!resized && prev.tiles === "off" && s.tiles === "off") return s;
  // A resize always says so (the plugin tabs follow the body, whose width can change alone).
  if (resized || sizesKey(prev) !== sizesKey(s)) {
    const pane = sessionSize(s.cols, s.rows);
    const tiles = tileSizes(s);
    // Only a change of the tiles claims their sessions; a resize alone resizes what follows it.
    const claim = tiles.length > 0 && tilesKey(prev) !== tilesKey(s);
    fx.push({ type: "resize-sessions", ...pane, tiles, ...(claim ? { claim } : {}) });
  }
  return s;
}

/**
 * The mouse over the tiles: in the focused tile in terminal mode it goes to
 * the session (tile-relative); a click elsewhere focuses that tile (keys
 * follow in terminal mode, as a click on a tmux pane); the wheel scrolls.
 */
export function tileMouse(s: TuiState, ev: MouseEvent, fx: TuiEffect[]): TuiState {
  const tile = tileAt(s, ev.x, ev.y);
  if (!tile) return s;
  const r = tile.inner;
  const inner = ev.x >= r.x && ev.x < r.x + r.width && ev.y >= r.y && ev.y < r.y + r.height;
  if (tile.id === s.selected && s.mode === "terminal") {
    if (inner) fx.push({ type: "mouse", id: tile.id, event: ev, x: ev.x - r.x, y: ev.y - r.y });
    return s;
  }
  if (ev.kind === "press" && ev.button === 0) return { ...s, selected: tile.id };
  if (ev.kind === "wheel") {
    fx.push({ type: "scroll", id: tile.id, delta: ev.button < 0 ? 3 : -3 });
  }
  return s;
}
