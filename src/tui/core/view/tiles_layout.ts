/**
 * The tiled view's math (docs/tui.md, Several at once): which sessions are
 * tiled, where each tile goes in the pane, and the size each tile's PTY
 * gets. Pure; the drawing is in tiles.ts, the sizes are applied by the
 * effect runner (src/tui/effects.ts, `resize-sessions`).
 */

import type { TuiState } from "../../../model/tui.ts";
import { layout, type Rect } from "../layout.ts";
import { needsYou, sessionOrder } from "./sidebar.ts";

/** At most this many tiles at once. */
export const MAX_TILES = 4;

export interface Tile {
  readonly id: string;
  /** The tile with its border. */
  readonly outer: Rect;
  /** The session's screen inside the border. */
  readonly inner: Rect;
}

type TileInput = Pick<
  TuiState,
  "tiles" | "pinned" | "zoomed" | "selected" | "sessions" | "tab" | "cols" | "rows"
>;

/**
 * The tiled sessions in list order: the selected one plus the pinned ones
 * (`pinned` mode) or every blocked or failed one (`blocked` mode). Over
 * MAX_TILES, the selected one stays and the first others in the list fill
 * the rest. Empty when the view is not tiled.
 */
export function tiledIds(s: TileInput): string[] {
  if (s.tiles === "off" || s.tab !== 0) return [];
  const order = sessionOrder(s.sessions);
  const want = new Set(
    s.tiles === "pinned" ? s.pinned : order.filter(needsYou).map((r) => r.id),
  );
  if (s.selected !== null) want.add(s.selected);
  const ids = order.filter((r) => want.has(r.id)).map((r) => r.id);
  if (ids.length <= MAX_TILES) return ids;
  const others = ids.filter((id) => id !== s.selected).slice(0, MAX_TILES - 1);
  return ids.filter((id) => id === s.selected || others.includes(id));
}

/** Splits `length` cells into two parts, the first half rounded down. */
function halves(start: number, length: number): [number, number, number, number] {
  const a = Math.floor(length / 2);
  return [start, a, start + a, length - a];
}

/**
 * Outer rectangles of `n` tiles (1–4) filling `area`: two side by side
 * when the area is wide (a cell is about twice as tall as wide), else one
 * above the other; three as one big tile and two stacked beside (or under)
 * it; four as a 2×2 grid.
 */
export function tileRects(area: Rect, n: number): Rect[] {
  const { x, y, width: w, height: h } = area;
  if (n <= 1) return n === 1 ? [area] : [];
  const wide = w >= h * 2;
  const [x0, w0, x1, w1] = halves(x, w);
  const [y0, h0, y1, h1] = halves(y, h);
  if (n === 2) {
    return wide
      ? [{ x: x0, y, width: w0, height: h }, { x: x1, y, width: w1, height: h }]
      : [{ x, y: y0, width: w, height: h0 }, { x, y: y1, width: w, height: h1 }];
  }
  if (n === 3) {
    return wide
      ? [
        { x: x0, y, width: w0, height: h },
        { x: x1, y: y0, width: w1, height: h0 },
        { x: x1, y: y1, width: w1, height: h1 },
      ]
      : [
        { x, y: y0, width: w, height: h0 },
        { x: x0, y: y1, width: w0, height: h1 },
        { x: x1, y: y1, width: w1, height: h1 },
      ];
  }
  return [
    { x: x0, y: y0, width: w0, height: h0 },
    { x: x1, y: y0, width: w1, height: h0 },
    { x: x0, y: y1, width: w0, height: h1 },
    { x: x1, y: y1, width: w1, height: h1 },
  ];
}

/** Inside a tile's border; a tile too small for one keeps no border. */
export function innerRect(r: Rect): Rect {
  if (r.width < 3 || r.height < 3) return r;
  return { x: r.x + 1, y: r.y + 1, width: r.width - 2, height: r.height - 2 };
}

/** The tiles drawn now: every tiled session, or only the selected one when zoomed. */
export function tiles(s: TileInput): Tile[] {
  const ids = tiledIds(s);
  if (ids.length === 0) return [];
  const pane = layout(s.cols, s.rows).pane;
  const shown = s.zoomed && s.selected !== null && ids.includes(s.selected) ? [s.selected] : ids;
  return tileRects(pane, shown.length).map((outer, i) => ({
    id: shown[i]!,
    outer,
    inner: innerRect(outer),
  }));
}

export interface TileSize {
  readonly id: string;
  readonly cols: number;
  readonly rows: number;
}

/**
 * The PTY size of each tiled session (its tile's inside, at least 2×2, as
 * layout.ts's sessionSize). A zoomed view sizes only the zoomed session:
 * the hidden tiles keep theirs, so zooming back redraws nothing else.
 */
export function tileSizes(s: TileInput): TileSize[] {
  const shown = tiles(s);
  const ids = tiledIds(s);
  const unzoomed = shown.length < ids.length ? tiles({ ...s, zoomed: false }) : [];
  const size = (t: Tile) => ({
    id: t.id,
    cols: Math.max(2, t.inner.width),
    rows: Math.max(2, t.inner.height),
  });
  return [
    ...shown.map(size),
    ...unzoomed.filter((t) => !shown.some((z) => z.id === t.id)).map(size),
  ];
}

/** The tile at (x, y) of the screen, if any. */
export function tileAt(s: TileInput, x: number, y: number): Tile | null {
  return tiles(s).find((t) =>
    x >= t.outer.x && x < t.outer.x + t.outer.width && y >= t.outer.y &&
    y < t.outer.y + t.outer.height
  ) ?? null;
}
