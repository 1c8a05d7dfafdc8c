/**
 * What detection reads (DESIGN §4): a plain, immutable picture of one
 * session at one moment. Detection never touches the live emulator.
 */

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
