/**
 * A ScreenView that also tells how each character is highlighted, for
 * prompt readers whose menus mark the selected option only by colour
 * (opencode's "Allow once   Allow always   Reject" row,
 * docs/manifests.md "Prompts"). Read only for blocked screens.
 */

import type { StyledView } from "../detect/prompt.ts";
import { terminalView } from "./screen_view.ts";
import type { HeadlessTerminal } from "./terminal.ts";

export function styledView(t: HeadlessTerminal): StyledView {
  const buffer = t.xterm.buffer.active;
  const base = buffer.baseY;
  return {
    ...terminalView(t),
    styles(y: number): number[] {
      const line = y < 0 || y >= t.rows ? undefined : buffer.getLine(base + y);
      if (!line) return [];
      const out: number[] = [];
      const cell = buffer.getNullCell();
      // Same walk as translateToString(true): wide characters' second cells
      // add nothing, empty cells are one blank; then trailing blanks go.
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
  };
}
