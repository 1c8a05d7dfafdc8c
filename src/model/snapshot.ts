/**
 * What detection reads (docs/architecture.md, Data flow of one session): a plain, immutable picture of one
 * session at one moment. Detection never touches the live emulator.
 */

import type { Color } from "./cells.ts";

/** One process as read from the OS process table (S4). */
export interface ProcessInfo {
  readonly pid: number;
  /** Kernel start time (clock ticks since boot on Linux); with pid, the identity. */
  readonly startTime: number;
  /** Short name (`comm` on Linux). */
  readonly comm: string;
  readonly argv: readonly string[];
  /** Resolved executable path when readable. */
  readonly exe: string | null;
}

export interface Cursor {
  readonly x: number;
  readonly y: number;
}

/**
 * A lazy view of the visible screen: detection reads only the rows a rule
 * needs (docs/architecture.md, Detection rules; bench/rules.ts). `line(y)` is row `y` (0 = top) as text
 * with trailing blanks trimmed; never scrollback.
 */
export interface ScreenView {
  readonly cols: number;
  readonly rows: number;
  readonly title: string;
  line(y: number): string;
  /**
   * Optional: one style key per UTF-16 unit of `line(y)` — equal keys, equal
   * background (an inverse cell counts by its foreground). Prompt readers use
   * it for menus that mark the selection by colour only.
   */
  styles?(y: number): readonly number[];
  /**
   * Foreground colour of the character at string index `i` of `line(y)`
   * (a wide character is one index, two cells). Read only by rules that test
   * colours, and only for the characters they test; absent on views without
   * cell attributes (a text snapshot), where colour conditions never hold.
   */
  fg?(y: number, i: number): Color;
}

/** A ScreenView over a Snapshot's already extracted rows. */
export function snapshotView(s: Snapshot): ScreenView {
  return {
    cols: s.cols,
    rows: s.lines.length,
    title: s.title,
    line: (y) => s.lines[y] ?? "",
  };
}

export interface Snapshot {
  readonly cols: number;
  readonly rows: number;
  /** Visible rows as text, trailing blanks trimmed; never scrollback (D2). */
  readonly lines: readonly string[];
  readonly title: string;
  readonly altScreen: boolean;
  readonly cursor: Cursor;
  /** Foreground process of the PTY, or null when unknown / exited. */
  readonly foreground: ProcessInfo | null;
}
