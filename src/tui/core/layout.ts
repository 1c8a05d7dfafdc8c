/**
 * Where things go on the host screen: tab bar (top row), session list on
 * the left, the selected session's screen on the right, one hint line at
 * the bottom. Pure; any size works, down to 1x1 (parts that do not fit get
 * zero size, never a negative one).
 */

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface Layout {
  readonly tabBar: Rect;
  readonly sidebar: Rect;
  /** The column between sidebar and pane (width 0 or 1). */
  readonly separator: Rect;
  readonly pane: Rect;
  /** The whole area under the tab bar, for plugin tabs and overlays. */
  readonly body: Rect;
  readonly hintBar: Rect;
}

const rect = (x: number, y: number, width: number, height: number): Rect => ({
  x,
  y,
  width: Math.max(0, width),
  height: Math.max(0, height),
});

/** Sidebar width: a quarter of the screen within 22–48 columns; narrower on small screens. */
export function sidebarWidth(cols: number): number {
  if (cols >= 80) return Math.min(48, Math.max(22, Math.floor(cols / 4)));
  if (cols >= 24) return Math.floor(cols / 3);
  return 0;
}

export function layout(cols: number, rows: number): Layout {
  cols = Math.max(0, Math.floor(cols));
  rows = Math.max(0, Math.floor(rows));
  const tabRows = rows >= 3 ? 1 : 0;
  const hintRows = rows >= 2 ? 1 : 0;
  const bodyY = tabRows;
  const bodyH = Math.max(0, rows - tabRows - hintRows);
  const side = sidebarWidth(cols);
  const sep = side > 0 ? 1 : 0;
  return {
    tabBar: rect(0, 0, cols, tabRows),
    sidebar: rect(0, bodyY, side, bodyH),
    separator: rect(side, bodyY, sep, bodyH),
    pane: rect(side + sep, bodyY, cols - side - sep, bodyH),
    body: rect(0, bodyY, cols, bodyH),
    hintBar: rect(0, rows - hintRows, cols, hintRows),
  };
}

/** The size sessions should have so they fit the pane exactly (at least 2x2). */
export function sessionSize(cols: number, rows: number): { cols: number; rows: number } {
  const pane = layout(cols, rows).pane;
  return { cols: Math.max(2, pane.width), rows: Math.max(2, pane.height) };
}
