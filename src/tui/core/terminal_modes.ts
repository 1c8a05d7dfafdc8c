/**
 * The host-terminal modes the TUI sets and undoes, written once: the TUI
 * (host.ts), the splash before it (splash.ts) and an interactive plugin
 * exec handing the terminal over (plugin_handover.ts) all use these. Pure.
 */

/** Alternate screen, cleared; cursor hidden; bracketed paste; SGR mouse (clicks, drags). */
export const ENTER_SCREEN =
  "\x1b[?1049h\x1b[H\x1b[2J\x1b[?25l\x1b[?2004h\x1b[?1000h\x1b[?1002h\x1b[?1006h";

/** Asks whether synchronized output (2026) is supported (DECRQM); the reply comes as input. */
export const QUERY_SYNC = "\x1b[?2026$p";

/**
 * Everything ENTER_SCREEN and the frames may have set, undone: synchronized
 * output, every mouse mode (1003 too, in case), paste, attributes; cursor
 * shown; the main screen back. Safe to write more than once.
 */
export const LEAVE_SCREEN =
  "\x1b[?2026l\x1b[?1006l\x1b[?1002l\x1b[?1000l\x1b[?1003l\x1b[?2004l\x1b[0m\x1b[?25h\x1b[?1049l";
