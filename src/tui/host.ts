/**
 * The host terminal: raw mode, alternate screen, hidden cursor, bracketed
 * paste and SGR mouse on the way in; all of it undone on the way out, in
 * every exit path (DESIGN §8, STYLE.md 4). The only writer to stdout: the
 * frame writer and the notifier's OSC sink both go through `write`.
 */

export const ENTER =
  "\x1b[?1049h\x1b[H\x1b[2J\x1b[?25l\x1b[?2004h\x1b[?1000h\x1b[?1002h\x1b[?1006h" +
  // Ask whether synchronized output (2026) is supported (DECRQM).
  "\x1b[?2026$p";
export const LEAVE =
  "\x1b[?2026l\x1b[?1006l\x1b[?1002l\x1b[?1000l\x1b[?1003l\x1b[?2004l\x1b[0m\x1b[?25h\x1b[?1049l";

import { quietStderr, restoreStderr } from "./stderr.ts";

const encoder = new TextEncoder();

export class HostTerminal {
  #entered = false;
  #raw = false;

  get size(): { cols: number; rows: number } {
    try {
      const { columns, rows } = Deno.consoleSize();
      return { cols: columns, rows };
    } catch {
      return { cols: 80, rows: 24 };
    }
  }

  /** Writes everything, looping over partial writes. */
  write(text: string): void {
    const data = encoder.encode(text);
    for (let n = 0; n < data.length;) n += Deno.stdout.writeSync(data.subarray(n));
  }

  /** `stderrDir`: where stray stderr goes meanwhile (stderr.ts), so it cannot scribble on frames. */
  enter(stderrDir?: string): void {
    if (this.#entered) return;
    if (stderrDir) quietStderr(stderrDir);
    Deno.stdin.setRaw(true);
    this.#raw = true;
    this.#entered = true;
    this.write(ENTER);
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
