/**
 * A lazy ScreenView over a live emulator: rows are read (and converted to
 * text) only when a rule's region asks for them, so a classification that
 * looks at the bottom rows and the title costs a few rows, not the screen.
 * Cell styles are read only by prompt readers of menus that mark the
 * selection by colour alone (opencode's "Allow once   Allow always   Reject").
 * Colours likewise: one cell per character a colour condition tests.
 */

import { type Color, DEFAULT_COLOR } from "../model/cells.ts";
import type { ScreenView } from "../model/snapshot.ts";
import { fgColor } from "./screen_read.ts";
import type { HeadlessTerminal } from "./terminal.ts";

export function terminalView(t: HeadlessTerminal): ScreenView {
  const buffer = t.buffer.active;
  const base = buffer.baseY;
  const rows = t.rows;
  const cols = t.cols;
  let cell: ReturnType<typeof buffer.getNullCell> | null = null;
  return {
    cols,
    rows,
    title: t.title,
    line: (
      y,
    ) => (y < 0 || y >= rows ? "" : buffer.getLine(base + y)?.translateToString(true) ?? ""),
    styles(y: number): number[] {
      const line = y < 0 || y >= rows ? undefined : buffer.getLine(base + y);
      if (!line) return [];
      const out: number[] = [];
      const cell = buffer.getNullCell();
      // The walk of translateToString(true): a wide character's second cell
      // adds nothing, an empty cell is one blank; then trailing blanks go.
      let end = 0;
      for (let x = 0; x < line.length; x++) {
        line.getCell(x, cell);
        if (cell.getWidth() === 0) continue;
        const chars = cell.getChars() || " ";
        const key = cell.isInverse()
          ? -1 - (cell.getFgColorMode() + cell.getFgColor())
          : cell.getBgColorMode() + cell.getBgColor();
        for (let i = 0; i < chars.length; i++) out.push(key);
        if (chars.trim() !== "") end = out.length;
      }
      out.length = end;
      return out;
    },
    fg(y, i): Color {
      const line = y < 0 || y >= rows ? undefined : buffer.getLine(base + y);
      if (!line || i < 0) return DEFAULT_COLOR;
      cell ??= buffer.getNullCell();
      // String index → column, the way translateToString walks the row: a
      // cell adds its characters (a blank one a space), a wide one spans two.
      let at = 0;
      for (let x = 0; x < cols;) {
        line.getCell(x, cell);
        const width = cell.getWidth() || 1;
        at += cell.getChars().length || 1;
        if (at > i) return fgColor(cell);
        x += width;
      }
      return DEFAULT_COLOR;
    },
  };
}
