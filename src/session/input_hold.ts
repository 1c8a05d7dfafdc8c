/**
 * What typed keys cause while the TUI handles them (Session.holdInput;
 * docs/tui.md, "The echo"): the "input" event of each write and the output
 * read meanwhile, kept in their order until release(). While the echo is
 * awaited, the first output read is handed ahead before it is parsed when
 * the emulator would draw it as it is at its cursor.
 */

import type { Cursor } from "../model/snapshot.ts";
import type { SessionEvent } from "./session_events.ts";
import type { HeadlessTerminal } from "./terminal.ts";

/** Plain text a session is about to draw at `at` (its cursor), in the default pen. */
export type EchoAhead = (text: string, at: Cursor) => void;

export class InputHold {
  #holding = false;
  readonly #events: SessionEvent[] = [];
  readonly #output: string[] = [];
  #ahead: EchoAhead | null = null;

  hold(): void {
    this.#holding = true;
  }

  /** Keeps `event` while holding; false when it is to be emitted now. */
  keepEvent(event: SessionEvent): boolean {
    if (!this.#holding) return false;
    this.#events.push(event);
    return true;
  }

  /**
   * Keeps output read while holding, after handing it to the awaiting
   * echo when `terminal` would draw it plain at its cursor
   * (HeadlessTerminal.plainTextAt); false when it is to be parsed now.
   */
  keepOutput(data: string, terminal: HeadlessTerminal): boolean {
    if (!this.#holding) return false;
    const ahead = this.#ahead;
    this.#ahead = null;
    if (ahead !== null && !terminal.midUpdate) {
      const at = terminal.plainTextAt(data);
      if (at) ahead(data, at);
    }
    this.#output.push(data);
    return true;
  }

  /** Runs `wait` (which reads the child's answer) with `ahead` armed, when keys were written. */
  awaitEcho(ahead: EchoAhead, wait: () => void): void {
    if (!this.#holding || this.#events.length === 0) return;
    this.#ahead = ahead;
    try {
      wait();
    } finally {
      this.#ahead = null;
    }
  }

  /** Ends the hold: what was kept, the events first (null when nothing was held). */
  release(): { events: SessionEvent[]; output: string[] } | null {
    if (!this.#holding) return null;
    this.#holding = false;
    this.#ahead = null;
    return { events: this.#events.splice(0), output: this.#output.splice(0) };
  }
}
