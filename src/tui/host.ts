/**
 * The host terminal: raw mode, alternate screen, hidden cursor, bracketed
 * paste and SGR mouse on the way in; all of it undone on the way out, in
 * every exit path (docs/tui.md; docs/architecture.md, Conventions). The only writer to stdout: the
 * frame writer and the notifier's OSC sink both go through `write`.
 */

import { quietStderr, restoreStderr } from "./stderr.ts";
import { ENTER_SCREEN, LEAVE_SCREEN, QUERY_SYNC } from "./core/terminal_modes.ts";
import { terminalSize } from "../platform/terminal.ts";

const LEAVE = LEAVE_SCREEN;

const encoder = new TextEncoder();

export class HostTerminal {
  #entered = false;
  #raw = false;
  #queried = false;

  get size(): { cols: number; rows: number } {
    return terminalSize();
  }

  /** Writes everything, looping over partial writes. */
  write(text: string): void {
    this.writeBytes(encoder.encode(text));
  }

  /** The same for bytes already encoded (the client writes the server's frames as they come). */
  writeBytes(data: Uint8Array): void {
    for (let n = 0; n < data.length;) n += Deno.stdout.writeSync(data.subarray(n));
  }

  /** Raw mode, the alternate screen and the rest of ENTER_SCREEN. */
  enter(): void {
    if (this.#entered) return;
    Deno.stdin.setRaw(true);
    this.#raw = true;
    this.#entered = true;
    this.write(ENTER_SCREEN);
  }

  /**
   * Takes the terminal again after the process was stopped and continued
   * (SIGCONT): a job-control shell put its own modes in force meanwhile
   * (canonical, echo, bracketed paste off) and `fg` does not give them
   * back. Raw mode and ENTER_SCREEN again (it clears the screen: the caller
   * has the whole frame drawn). From the background, setting raw mode stops
   * the process again (SIGTTOU), as any program that takes its terminal:
   * it goes on once it is in the foreground.
   */
  retake(): void {
    if (!this.#entered) return;
    Deno.stdin.setRaw(true);
    this.#raw = true;
    this.write(ENTER_SCREEN);
  }

  /**
   * Asks whether the terminal takes synchronized output (QUERY_SYNC), once,
   * after the server welcomed the client: its reply is a key the server's
   * TUI reads. Asked earlier, a client refused at its hello (nested, full)
   * is gone when the reply comes, and the reply (`2026;2$y`) lands in the
   * shell as typed text.
   */
  querySync(): void {
    if (!this.#entered || this.#queried) return;
    this.#queried = true;
    this.write(QUERY_SYNC);
  }

  /**
   * Stray stderr goes to `dir` until `restore` (stderr.ts), so it cannot
   * scribble on frames. Apart from `enter`: it loads libc through FFI, ~5 ms,
   * which the client spends after its first frame is on screen.
   */
  quietStderr(dir: string): void {
    if (this.#entered) quietStderr(dir);
  }

  /** Idempotent: safe to call from finally blocks, signal handlers and error handlers. */
  restore(): void {
    if (!this.#entered) return;
    this.#entered = false;
    try {
      this.write(LEAVE);
    } catch { /* stdout gone */ }
    if (this.#raw) {
      this.#raw = false;
      try {
        Deno.stdin.setRaw(false);
      } catch { /* stdin gone */ }
    }
    restoreStderr();
  }
}
