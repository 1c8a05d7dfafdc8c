/**
 * The TUI's first frame while a server starts (commander, zod, yaml, xterm,
 * node-pty take a few hundred ms): the real layout with the default keymap
 * and "starting…" (drawn by splash_frame.ts, loaded only then). The
 * server's first real frame replaces it; if start-up fails, leaveSplash()
 * gives the terminal back before the error is printed.
 */

import { dataDir } from "../config/paths.ts";
import { quietStderr, restoreStderr } from "./stderr.ts";
import { ENTER_SCREEN, LEAVE_SCREEN } from "./core/terminal_modes.ts";

export const STARTING = "starting…";
let shown = false;

export async function showSplash(): Promise<void> {
  if (shown || !Deno.stdin.isTerminal() || !Deno.stdout.isTerminal()) return;
  try {
    const { columns, rows } = Deno.consoleSize();
    const { splashFrame } = await import("./core/splash_frame.ts");
    const frame = splashFrame(columns, rows, STARTING);
    if (shown) return;
    Deno.stdin.setRaw(true);
    quietStderr(dataDir(Deno.env.toObject()));
    shown = true;
    write(ENTER_SCREEN + frame);
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
