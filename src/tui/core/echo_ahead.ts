/**
 * A typed key's echo drawn before its session parses it (docs/tui.md, "The
 * echo"): where the last frame says the host terminal stands, is plain
 * text the session draws at its cursor in the default pen written as it
 * is? Pure: the TUI (app.ts) writes the text when this says yes.
 */

import { DEFAULT_COLOR, type Frame } from "./frame.ts";
import { layout, type Rect } from "./layout.ts";
import type { Cursor } from "../../model/snapshot.ts";
import type { TuiState } from "../../model/tui.ts";
import { isTiled } from "./view/tiles.ts";

/**
 * The pane where `state` shows session `id` typed into, alone and at its
 * live screen (the sessions tab, terminal mode, no overlay, no tiles, not
 * scrolled back); null when an echo there may not be guessed.
 */
export function echoPane(state: TuiState, id: string): Rect | null {
  const s = state;
  if (s.tab !== 0 || s.mode !== "terminal" || s.selected !== id || s.overlay) return null;
  if (isTiled(s) || (s.scroll[id] ?? 0) !== 0) return null;
  return layout(s.cols, s.rows).pane;
}

/**
 * Records in `shown` (the last frame: what the host terminal shows) plain
 * `text` drawn at the host's cursor, in the default pen, and the cursor
 * after it; true when the text is to be written there. False (nothing
 * recorded) unless the host's cursor is the session's cursor `at` in
 * `pane`, and the text overwrites only narrow cells before the pane's
 * right edge. A wrong guess (another pen, another place) is mended by the
 * next diff, since `shown` says what the terminal holds.
 */
export function recordEchoAhead(shown: Frame, pane: Rect, text: string, at: Cursor): boolean {
  const c = shown.cursor;
  if (!c) return false;
  const end = c.x + text.length;
  if (c.x - at.x !== pane.x || c.y - at.y !== pane.y || end >= pane.x + pane.width) return false;
  const row = c.y * shown.cols;
  // Narrow cells only: a wide character's right half past them would mean its left one is in them.
  for (let i = row + c.x; i < row + end; i++) if (shown.widths[i] !== 1) return false;
  for (let k = 0; k < text.length; k++) {
    const i = row + c.x + k;
    shown.chars[i] = text[k]!;
    shown.fg[i] = DEFAULT_COLOR;
    shown.bg[i] = DEFAULT_COLOR;
    shown.attrs[i] = 0;
  }
  // A new object: frames share their cursor when one is copied from another.
  shown.cursor = { x: end, y: c.y };
  return true;
}
