/** Colours and styles of the TUI, in palette indices so the host theme applies. */

import { BOLD, DIM, INVERSE, type Style } from "../frame.ts";

export const RED = 1;
export const GREEN = 2;
export const YELLOW = 3;
export const BLUE = 4;
export const MAGENTA = 5;
export const CYAN = 6;
export const GRAY = 8;
export const SELECTED_BG = 236;

export const theme = {
  text: {} as Style,
  dim: { attrs: DIM } as Style,
  bold: { attrs: BOLD } as Style,
  title: { fg: CYAN, attrs: BOLD } as Style,
  tabActive: { attrs: BOLD | INVERSE } as Style,
  tabIdle: { fg: GRAY } as Style,
  separator: { fg: GRAY } as Style,
  blocked: { fg: RED, attrs: BOLD } as Style,
  blockedBanner: { fg: RED, attrs: BOLD | INVERSE } as Style,
  working: { fg: YELLOW } as Style,
  done: { fg: GREEN, attrs: BOLD } as Style,
  error: { fg: RED } as Style,
  activity: { fg: CYAN } as Style,
  noStatus: { fg: GRAY, attrs: DIM } as Style,
  group: { fg: BLUE, attrs: BOLD } as Style,
  key: { fg: CYAN, attrs: BOLD } as Style,
  hint: { fg: GRAY } as Style,
  terminalBadge: { fg: 0, bg: GREEN, attrs: BOLD } as Style,
  message: { fg: GREEN } as Style,
  messageError: { fg: RED, attrs: BOLD } as Style,
  box: { fg: CYAN } as Style,
  boxFill: {} as Style,
  paletteSelected: { attrs: INVERSE } as Style,
  copyBadge: { fg: 0, bg: YELLOW, attrs: BOLD } as Style,
  /** Copy mode: every match of the search on screen, the current one, the cursor line, the selection. */
  searchMatch: { fg: 0, bg: YELLOW } as Style,
  searchCurrent: { fg: 0, bg: 208, attrs: BOLD } as Style,
  copyCursor: { bg: 238 } as Style,
  copySelection: { bg: 24 } as Style,
} as const;

/**
 * The theme a plugin gets in `init.theme` (docs/plugin-protocol.md): the
 * roles of this TUI as palette indices (`ansi:<n>`, drawn with
 * `ESC[38;5;<n>m`). lazyshell draws with palette indices only, so its
 * colours are whatever the user's terminal theme makes of them; a plugin
 * using the same indices matches it under any theme. (RGB values are not
 * known: the host terminal's palette is never queried.)
 */
export function pluginTheme(): { id: string; colors: Record<string, string> } {
  const ansi = (style: Style) => style.fg === undefined ? null : `ansi:${style.fg}`;
  const roles: Record<string, Style> = {
    "ui.accent": theme.title,
    "ui.key": theme.key,
    "ui.hint": theme.hint,
    "ui.separator": theme.separator,
    "ui.group": theme.group,
    "ui.message": theme.message,
    "ui.error": theme.messageError,
    "state.blocked": theme.blocked,
    "state.working": theme.working,
    "state.done": theme.done,
    "state.error": theme.error,
    "state.activity": theme.activity,
  };
  const colors: Record<string, string> = { "ui.selected_bg": `ansi:${SELECTED_BG}` };
  for (const [role, style] of Object.entries(roles)) {
    const c = ansi(style);
    if (c !== null) colors[role] = c;
  }
  return { id: "terminal", colors };
}
