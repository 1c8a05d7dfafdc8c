/**
 * Draws the tiled view (docs/tui.md, Several at once): each tiled
 * session's live screen in its own bordered tile, its state marker and
 * name in the top border, the focused tile (the selected session, where
 * keys go) in the accent colour. Pure, like the rest of the view.
 */

import type { TuiState } from "../../../model/tui.ts";
import type { Frame, Span } from "../frame.ts";
import type { Keymap } from "../keymap.ts";
import { stringWidth, truncate } from "../../../util/width.ts";
import { markerOf } from "./marker.ts";
import { drawPane } from "./pane.ts";
import { theme } from "./theme.ts";
import { type Tile, tiledIds, tiles } from "./tiles_layout.ts";
import type { Rect } from "../layout.ts";

/** True when the Sessions tab shows tiles rather than one pane. */
export function isTiled(state: TuiState): boolean {
  return state.tiles !== "off" && state.tab === 0 && state.selected !== null;
}

/** Every tile with its screen (`screens`: the tiled sessions' screens, by id). */
export function drawTiles(
  frame: Frame,
  state: TuiState,
  screens: ReadonlyMap<string, Frame | null>,
  keymap?: Keymap,
): void {
  const shown = tiles(state);
  const hidden = tiledIds(state).length - shown.length;
  for (const tile of shown) {
    const focused = tile.id === state.selected;
    drawBorder(frame, tile, state, focused, focused && hidden > 0 ? hidden : 0);
    const row = state.sessions.find((s) => s.id === tile.id) ?? null;
    const o = tile.outer;
    // What the tile cannot show of a bigger screen goes on its bottom border, inside the corners.
    const note = o.width > tile.inner.width
      ? { x: o.x + 2, y: o.y + o.height - 1, width: Math.max(0, o.width - 4), height: 1 }
      : undefined;
    drawPane(
      frame,
      tile.inner,
      state,
      row,
      screens.get(tile.id) ?? null,
      undefined,
      keymap,
      focused,
      note,
    );
  }
}

/** The box around a tile, with ` marker name · agent ` on its top edge. */
function drawBorder(frame: Frame, tile: Tile, state: TuiState, focused: boolean, hidden: number) {
  const o = tile.outer;
  if (o.width === tile.inner.width) return; // too small for a border
  const style = focused ? theme.title : theme.separator;
  const right = o.x + o.width - 1;
  const bottom = o.y + o.height - 1;
  frame.text(o.x, o.y, "┌" + "─".repeat(o.width - 2) + "┐", style);
  frame.text(o.x, bottom, "└" + "─".repeat(o.width - 2) + "┘", style);
  for (let y = o.y + 1; y < bottom; y++) {
    frame.text(o.x, y, "│", style);
    frame.text(right, y, "│", style);
  }
  const row = state.sessions.find((s) => s.id === tile.id);
  if (!row) return;
  const marker = markerOf(row, state);
  const zoom = hidden > 0 ? ` zoomed · ${hidden} more · z ` : "";
  const room = o.width - 4 - stringWidth(zoom);
  if (room < 3) return;
  const name = row.agent !== null ? `${row.name} · ${row.agent}` : row.name;
  const title: Span[] = [
    { text: " " },
    { text: marker.text, style: marker.style },
    { text: " " + truncate(name, Math.max(0, room - 4)) + " ", style: focused ? theme.bold : {} },
  ];
  frame.line(o.x + 2, o.y, Math.min(room, spanWidth(title)), title, style);
  if (zoom) frame.text(right - 1 - stringWidth(zoom), o.y, zoom, style, right);
}

function spanWidth(spans: readonly Span[]): number {
  return spans.reduce((w, s) => w + stringWidth(s.text), 0);
}

/** The rectangle of the selected session's screen: its tile's inside, when tiled. */
export function focusedRect(state: TuiState): Rect | null {
  return tiles(state).find((t) => t.id === state.selected)?.inner ?? null;
}
