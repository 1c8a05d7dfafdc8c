/**
 * A lazy ScreenView over a live emulator: rows are read (and converted to
 * text) only when a rule's region asks for them, so a classification that
 * looks at the bottom rows and the title costs a few rows, not the screen.
 */

import type { ScreenView } from "../model/snapshot.ts";
import type { HeadlessTerminal } from "./terminal.ts";

export function terminalView(t: HeadlessTerminal): ScreenView {
  const buffer = t.xterm.buffer.active;
  const base = buffer.baseY;
  const rows = t.rows;
  return {
    cols: t.cols,
    rows,
    title: t.title,
    line: (
      y,
    ) => (y < 0 || y >= rows ? "" : buffer.getLine(base + y)?.translateToString(true) ?? ""),
  };
}
