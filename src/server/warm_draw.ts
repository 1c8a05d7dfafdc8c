/**
 * A throwaway frame, drawn by the server once it has started and before any
 * client asks for one (docs/architecture.md, Start-up): V8 compiles a
 * function the first time it runs, and the first attach to a server of 16
 * sessions spent ~21 ms compiling (V8's function events) to draw a frame
 * the next attach drew in ~1.5 ms. Drawing one frame ahead pays most of it
 * before anyone waits (~8 ms were left: the attach's own code, which
 * rehearsal.ts runs next).
 *
 * What a TUI's first frame runs — its reducer, the screen read, the view,
 * the diff, then a pane redrawn — with no side effect: the state is this
 * module's own, the reducer's effects are dropped (a TUI would tell the
 * runtime what it shows and looks at), nothing subscribes, the screen
 * readers are let go, nothing is written.
 */

import { resolveKeymap } from "../tui/core/keymap.ts";
import { problemsMessage } from "../tui/core/problems_message.ts";
import { update } from "../tui/core/update.ts";
import { repaintPane, view } from "../tui/core/view/mod.ts";
import { diff } from "../tui/core/diff.ts";
import { layout } from "../tui/core/layout.ts";
import { paneWindow, windowAtBottom } from "../tui/core/view/pane_window.ts";
import { Screens } from "../tui/screens.ts";
import { initialTuiState } from "../model/tui.ts";
import type { Runtime } from "../runtime/runtime.ts";

/**
 * Draws a frame of `runtime`'s sessions at `cols`×`rows` as an attaching client's TUI would;
 * returns what it would have written (the server drops it).
 */
export function warmDraw(runtime: Runtime, cols: number, rows: number): string {
  const config = runtime.config;
  const keymap = resolveKeymap(config.keys).keymap;
  let state = initialTuiState(cols, rows, Date.now(), config.reduce_motion);
  const problems = problemsMessage(runtime.state.problems);
  if (problems) state = { ...state, message: { text: problems, error: true } };
  state = update(state, { type: "tabs", tabs: [] }, keymap).state;
  state = update(state, { type: "sessions", sessions: runtime.state.sessions }, keymap).state;
  using screens = new Screens((id) => runtime.sessions.get(id));
  const read = screens.forFrame(state);
  const pane = layout(state.cols, state.rows).pane;
  if (read.screen && state.selected) {
    paneWindow(read.screen, pane.width, pane.height, windowAtBottom(state, state.selected));
  }
  const input = { keymap, screen: read.screen, tabLines: null };
  const frame = view(state, read.tiles ? { ...input, screens: read.tiles } : input);
  let written = diff(null, frame, { continued: true });
  // The frames after the first: the pane alone, drawn again into a frame of its own.
  const again = screens.forFrame(state);
  const next = repaintPane(state, frame, again.screen, null, undefined, keymap, again.tiles);
  if (next) written += diff(frame, next, { continued: true });
  return written;
}
