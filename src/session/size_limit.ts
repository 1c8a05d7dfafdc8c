/**
 * The largest terminal a session or a client's TUI takes (docs/architecture.md,
 * "Server and clients", Bounds). The emulator keeps every row at its full
 * width (12 bytes a cell), and a resize holds the whole scrollback at the new
 * width while it reflows: one client asking for 10000×10000 took the server
 * from 113 MB to 4 GB. At 1000×500, the largest `default_size` already
 * (src/config/config.ts), a session with its scrollback costs ~7 MB more
 * than at 120×32 (tests/attach_size_test.ts), its alternate screen as much
 * again when in use; a bigger terminal is drawn at this size, its client
 * told so.
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
