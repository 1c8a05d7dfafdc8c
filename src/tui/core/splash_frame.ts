/**
 * The splash's drawing (src/tui/splash.ts): the real layout with the
 * default keymap and "starting…", from the pure view only. Loaded only when
 * a splash is shown: a client attaching to a running server never draws one
 * and must not pay for the view's modules at start-up.
 */

import { initialTuiState } from "../../model/tui.ts";
import { diff } from "./diff.ts";
import { resolveKeymap } from "./keymap.ts";
import { view } from "./view/mod.ts";

/** The bytes of the splash frame at this size, from a blank screen. */
export function splashFrame(columns: number, rows: number, message: string): string {
  const state = {
    ...initialTuiState(columns, rows, Date.now()),
    message: { text: message, error: false },
  };
  return diff(null, view(state, { keymap: resolveKeymap().keymap, screen: null, tabLines: null }));
}
