/**
 * The TUI's first frame, drawn before the heavy modules load (commander,
 * zod, yaml, xterm, node-pty take a few hundred ms): the real layout with
 * the default keymap and "starting…", from the pure view only. The loop's
 * first real frame replaces it; if start-up fails, leaveSplash() gives the
 * terminal back before the error is printed.
 */

import { dataDir } from "../config/paths.ts";
import { initialTuiState } from "../model/tui.ts";
import { diff } from "./diff.ts";
import { resolveKeymap } from "./keymap.ts";
import { view } from "./view/mod.ts";
import { quietStderr, restoreStderr } from "./stderr.ts";
import { ENTER_SCREEN, LEAVE_SCREEN } from "./terminal_modes.ts";

export const STARTING = "starting…";
let shown = false;

export function showSplash(): void {
  if (shown || !Deno.stdin.isTerminal() || !Deno.stdout.isTerminal()) return;
  try {
    const { columns, rows } = Deno.consoleSize();
    const state = {
      ...initialTuiState(columns, rows, Date.now()),
      message: { text: STARTING, error: false },
    };
    const frame = view(state, { keymap: resolveKeymap().keymap, screen: null, tabLines: null });
    Deno.stdin.setRaw(true);
    quietStderr(dataDir(Deno.env.toObject()));
    shown = true;
    write(ENTER_SCREEN + diff(null, frame));
  } catch { /* no splash, no harm */ }
}

/** True once (and while) the splash holds the terminal. */
export function splashShown(): boolean {
  return shown;
}

/** Gives the terminal back (alternate screen, cursor, cooked mode). */
export function leaveSplash(): void {
  if (!shown) return;
  shown = false;
  try {
    write(LEAVE_SCREEN);
    Deno.stdin.setRaw(false);
  } catch { /* terminal gone */ }
  restoreStderr();
}

/** The loop took the terminal over: nothing to give back here any more. */
export function splashHandedOver(): void {
  shown = false;
}

function write(text: string): void {
  const data = new TextEncoder().encode(text);
  for (let n = 0; n < data.length;) n += Deno.stdout.writeSync(data.subarray(n));
}
