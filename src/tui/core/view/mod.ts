/**
 * view(state, inputs) → Frame: the whole TUI screen from plain state plus
 * what the runtime read for this frame (the selected session's screen,
 * the active plugin tab's lines). Pure: the view imports no runtime (no
 * Deno.*, node-pty or xterm) and nothing from the engine (src/runtime).
 */

import type { TuiState } from "../../../model/tui.ts";
import { Frame, type StyledLine } from "../frame.ts";
import type { Keymap } from "../keymap.ts";
import { layout } from "../layout.ts";
import { drawHintBar, drawTabBar } from "./bars.ts";
import { drawHelp, drawPalette } from "./overlays.ts";
import { drawAnswerOverlay, drawInbox } from "./answer.ts";
import { drawRestore } from "./restore.ts";
import { drawPane } from "./pane.ts";
import { drawSidebar } from "./sidebar.ts";
import { theme } from "./theme.ts";
import { drawTiles, isTiled } from "./tiles.ts";
import { drawNewAgent } from "./new_agent.ts";
import { drawRemotePane } from "./host_rows.ts";

export interface ViewInput {
  readonly keymap: Keymap;
  /** The selected session's screen (viewport), read from its emulator. */
  readonly screen: Frame | null;
  /** The active plugin tab's content, when a plugin tab is shown. */
  readonly tabLines: readonly StyledLine[] | null;
  /** The tiled sessions' screens by id, when the view is tiled (view/tiles.ts). */
  readonly screens?: ReadonlyMap<string, Frame | null>;
}

/** Draws the screen; `reuse` (a frame of the same size no longer needed) saves an allocation. */
/**
 * The previous frame of the same state with only the session pane redrawn:
 * what a new screen of the selected session needs (its echo, a spinner),
 * without rebuilding the list and bars. Null when that is not enough (an
 * overlay or a plugin tab is shown, the size changed). `rows` [from, to):
 * the only screen rows that changed since `prev` was drawn. `behind`
 * [from, to): the only frame rows where `reuse` may differ from `prev` (the
 * rows `prev` redrew over it); only those are copied.
 */
export function repaintPane(
  state: TuiState,
  prev: Frame,
  screen: Frame | null,
  reuse?: Frame | null,
  rows?: readonly [number, number],
  keymap?: Keymap,
  screens?: ReadonlyMap<string, Frame | null>,
  behind?: readonly [number, number] | null,
): Frame | null {
  if (state.tab !== 0 || state.overlay !== null || state.remote !== null) return null;
  if (prev.cols !== state.cols || prev.rows !== state.rows) return null;
  const fits = reuse && reuse.cols === state.cols && reuse.rows === state.rows;
  const frame = fits ? reuse : new Frame(state.cols, state.rows);
  if (fits && behind) frame.copyRowsFrom(prev, behind[0], behind[1]);
  else frame.copyFrom(prev);
  frame.cursor = null;
  if (isTiled(state)) {
    drawTiles(frame, state, screens ?? new Map(), keymap);
    return frame;
  }
  const row = state.sessions.find((s) => s.id === state.selected) ?? null;
  drawPane(frame, layout(state.cols, state.rows).pane, state, row, screen, rows, keymap);
  return frame;
}

export function view(state: TuiState, input: ViewInput, reuse?: Frame | null): Frame {
  let frame: Frame;
  if (reuse && reuse.cols === state.cols && reuse.rows === state.rows) {
    reuse.clear();
    frame = reuse;
  } else {
    frame = new Frame(state.cols, state.rows);
  }
  const l = layout(state.cols, state.rows);
  drawTabBar(frame, l.tabBar, state);
  if (state.tab === 0) {
    drawSidebar(frame, l.sidebar, state);
    for (let y = 0; y < l.separator.height; y++) {
      frame.text(l.separator.x, l.separator.y + y, "│", theme.separator);
    }
    if (state.remote !== null) drawRemotePane(frame, l.pane, state);
    else if (isTiled(state)) drawTiles(frame, state, input.screens ?? new Map(), input.keymap);
    else {
      const row = state.sessions.find((s) => s.id === state.selected) ?? null;
      drawPane(frame, l.pane, state, row, input.screen, undefined, input.keymap);
    }
  } else {
    const lines = input.tabLines ?? [];
    for (let y = 0; y < l.body.height; y++) {
      frame.line(l.body.x, l.body.y + y, l.body.width, lines[y] ?? []);
    }
  }
  if (state.overlay?.type === "help") {
    frame.cursor = null;
    drawHelp(frame, l.body, input.keymap, state.overlay.top ?? 0);
  } else if (state.overlay?.type === "palette") {
    frame.cursor = null;
    drawPalette(frame, l.body, state, input.keymap);
  } else if (state.overlay?.type === "answer") {
    frame.cursor = null;
    drawAnswerOverlay(frame, l.body, state);
  } else if (state.overlay?.type === "inbox") {
    frame.cursor = null;
    drawInbox(frame, l.body, state);
  } else if (state.overlay?.type === "restore") {
    frame.cursor = null;
    drawRestore(frame, l.body, state.overlay, input.keymap);
  } else if (state.overlay?.type === "new-agent") {
    frame.cursor = null;
    drawNewAgent(frame, l.body, state.overlay);
  }
  drawHintBar(frame, l.hintBar, state, input.keymap);
  return frame;
}
