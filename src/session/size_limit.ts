/**
 * The largest terminal a session or a client's TUI takes (docs/architecture.md,
 * "Server and clients", Bounds). The emulator keeps every row at its full
 * width (12 bytes a cell), and a resize holds the whole scrollback at the new
 * width while it reflows: one client asking for 10000×10000 took the server
 * from 113 MB to 4 GB. At 1000×500 a session's screens cost ~13 MB, as the
 * largest `default_size` (src/config/config.ts) already did; a bigger
 * terminal is drawn at this size, its client told so.
 */

export const MAX_COLS = 1000;
export const MAX_ROWS = 500;

export interface Size {
  readonly cols: number;
  readonly rows: number;
}

/** `cols`×`rows` within MAX_COLS×MAX_ROWS. */
export function clampSize(cols: number, rows: number): Size {
  return { cols: Math.min(cols, MAX_COLS), rows: Math.min(rows, MAX_ROWS) };
}

/** The line a person sees when their terminal is over the largest size, or null. */
export function oversizeNotice(cols: number, rows: number): string | null {
  if (cols <= MAX_COLS && rows <= MAX_ROWS) return null;
  return `This terminal is ${cols}×${rows}: lazyshell draws at most ${MAX_COLS}×${MAX_ROWS}`;
}
