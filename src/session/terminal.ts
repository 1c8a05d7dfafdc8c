/**
 * One headless xterm per session (SPEC S2): visible screen, bounded
 * scrollback, title, alternate-screen flag, cursor, query replies.
 *
 * Owns: the emulator and its OSC handlers. Must not import tui/ or app/.
 * Invariant: the OSC 7501 `?` reply is written through `reply` synchronously
 * from the handler, so it reaches the PTY before the emulator's own DA1
 * reply to a probe sent in the same write (fixtures/captures/claude-tool-osc7501).
 */

import xterm from "@xterm/headless";
import { OSC7501_QUERY_REPLY } from "../model/agent.ts";
import type { Cursor } from "../model/snapshot.ts";
import type { Osc133Mark, TerminalEvent, TerminalListener } from "./terminal_events.ts";

const { Terminal } = xterm;
export type XTerm = InstanceType<typeof Terminal>;

export const DEFAULT_SCROLLBACK = 5000;

/** Colours we report to OSC 10/11 queries (opencode waits 6 s without them). */
const FG_REPLY = "rgb:d0d0/d0d0/d0d0";
const BG_REPLY = "rgb:1c1c/1c1c/1c1c";

export interface TerminalOptions {
  readonly cols: number;
  readonly rows: number;
  readonly scrollback?: number;
  /**
   * Where query replies go (the PTY). Omit to answer nothing, as
   * `lazyshell detect` does when replaying a capture.
   */
  readonly reply?: (data: string) => void;
}

/**
 * xterm's write queue parses a write at once, instead of after a
 * setTimeout(0) (2–4 ms in Deno: input echo latency, one more event-loop
 * wake-up per chunk), when the write follows user input. Output is written
 * through that path whenever nothing is queued; a long write still yields
 * after xterm's 12 ms slice. Private field of @xterm/headless 6.0.0, checked
 * at construction (the public path when it is missing); terminal_test.ts
 * fails if an upgrade drops it.
 */
interface WriteQueue {
  _didUserInput: boolean;
  _writeBuffer: unknown[];
  _callbacks: Array<(() => void) | undefined>;
  _pendingData: number;
  _bufferOffset: number;
}

function writeQueue(term: XTerm): WriteQueue | null {
  const queue = (term as unknown as { _core?: { _writeBuffer?: unknown } })._core?._writeBuffer;
  if (typeof queue !== "object" || queue === null) return null;
  const q = queue as Partial<WriteQueue>;
  return typeof q._didUserInput === "boolean" && Array.isArray(q._writeBuffer) &&
      Array.isArray(q._callbacks) && typeof q._bufferOffset === "number"
    ? queue as WriteQueue
    : null;
}

/**
 * After the parser threw: resets the parser (it stopped mid-sequence),
 * drops what is queued (the rest of the failing write included) and calls
 * its callbacks, as xterm does once a write is parsed. Without this every
 * later write stays queued behind the one that threw and the screen never
 * changes again (measured on 6.0.0).
 */
function unstick(term: XTerm, queue: WriteQueue): void {
  const parser =
    (term as unknown as { _core?: { _inputHandler?: { _parser?: { reset?(): void } } } })
      ._core?._inputHandler?._parser;
  parser?.reset?.();
  const waiting = queue._callbacks.slice(queue._bufferOffset);
  queue._writeBuffer.length = 0;
  queue._callbacks.length = 0;
  queue._pendingData = 0;
  queue._bufferOffset = 0;
  for (const callback of waiting) callback?.();
}

/**
 * Viewport rows `start`..`end` (inclusive) redrawn since the last look, or
 * "all" (scrolled, resized, switched buffer, or not tracked), or null.
 */
export type ChangedRows = { readonly start: number; readonly end: number } | "all" | null;

/**
 * xterm's parser reports the viewport rows each write touched (what its
 * renderer repaints; headless has no renderer). Private API of
 * @xterm/headless 6.0.0, checked at construction (every row counts as
 * changed when it is missing); terminal_test.ts fails if an upgrade drops it.
 */
interface RefreshRows {
  onRequestRefreshRows(listener: (range?: { start: number; end: number }) => void): unknown;
}

function refreshRows(term: XTerm): RefreshRows | null {
  const handler = (term as unknown as { _core?: { _inputHandler?: Partial<RefreshRows> } })._core
    ?._inputHandler;
  return typeof handler?.onRequestRefreshRows === "function" ? handler as RefreshRows : null;
}

/** The parts of xterm's InputHandler the ED 1 workaround below uses. */
interface EraseInternals {
  _restrictCursor(maxCol: number): void;
  _eraseInBufferLine(
    y: number,
    start: number,
    end: number,
    clearWrap: boolean,
    protect: boolean,
  ): void;
  _resetBufferLine(y: number, protect: boolean): void;
}

function eraseInternals(term: XTerm): EraseInternals | null {
  const h = (term as unknown as { _core?: { _inputHandler?: Partial<EraseInternals> } })._core
    ?._inputHandler;
  return typeof h?._restrictCursor === "function" &&
      typeof h._eraseInBufferLine === "function" && typeof h._resetBufferLine === "function"
    ? h as EraseInternals
    : null;
}

export class HeadlessTerminal implements Disposable {
  readonly xterm: XTerm;
  readonly #queue: WriteQueue | null;
  #listeners = new Set<TerminalListener>();
  #title = "";
  #disposed = false;
  #tracksRows: boolean;
  #changed: ChangedRows = "all";

  constructor(options: TerminalOptions) {
    const reply = options.reply;
    this.xterm = new Terminal({
      cols: options.cols,
      rows: options.rows,
      scrollback: options.scrollback ?? DEFAULT_SCROLLBACK,
      allowProposedApi: true,
      windowOptions: { getWinSizeChars: true },
    });
    this.#queue = writeQueue(this.xterm);
    const rows = refreshRows(this.xterm);
    this.#tracksRows = rows !== null;
    rows?.onRequestRefreshRows((range) => this.#rowsChanged(range ?? "all"));
    this.xterm.onScroll(() => this.#rowsChanged("all"));
    this.xterm.onResize(() => this.#rowsChanged("all"));
    if (reply) this.xterm.onData(reply);
    this.xterm.onTitleChange((title) => {
      this.#title = title;
      this.#emit({ type: "title", title });
    });
    this.xterm.onBell(() => this.#emit({ type: "bell" }));
    this.xterm.buffer.onBufferChange((b) => {
      this.#rowsChanged("all");
      this.#emit({ type: "alt-screen", active: b.type === "alternate" });
    });
    const parser = this.xterm.parser;
    this.#fixEraseAbove();
    parser.registerOscHandler(7501, (data) => {
      if (data.startsWith("?")) {
        reply?.(OSC7501_QUERY_REPLY);
        this.#emit({ type: "osc7501-query" });
      } else {
        this.#emit({ type: "osc7501", payload: data });
      }
      return true;
    });
    parser.registerOscHandler(133, (data) => {
      const event = parseOsc133(data);
      if (event) this.#emit(event);
      return true;
    });
    parser.registerOscHandler(9, (data) => {
      // OSC 9;4 is progress, not a notification.
      if (!/^4;/.test(data)) this.#emit({ type: "child-notify", osc: 9, title: null, body: data });
      return true;
    });
    parser.registerOscHandler(777, (data) => {
      const [verb, title, ...body] = data.split(";");
      if (verb === "notify") {
        this.#emit({ type: "child-notify", osc: 777, title: title ?? null, body: body.join(";") });
      }
      return true;
    });
    for (const [code, colour] of [[10, FG_REPLY], [11, BG_REPLY]] as const) {
      parser.registerOscHandler(code, (data) => {
        if (data === "?") reply?.(`\x1b]${code};${colour}\x1b\\`);
        return data === "?";
      });
    }
  }

  /** Subscribe to derived facts; returns a disposable that unsubscribes. */
  on(listener: TerminalListener): Disposable {
    this.#listeners.add(listener);
    return { [Symbol.dispose]: () => this.#listeners.delete(listener) };
  }

  /**
   * Parse bytes; `done` runs once they are applied to the screen — before
   * this returns when nothing else waits to be parsed — or at once when the
   * emulator is already disposed (a session removed before its child's exit
   * still reports the exit).
   */
  write(data: string | Uint8Array, done?: () => void): void {
    if (this.#disposed) return done?.();
    if (this.#queue) this.#queue._didUserInput = true;
    try {
      this.xterm.write(data, done);
    } catch (error) {
      // An emulator bug: the rest of this write is lost, `done` is called,
      // later writes are parsed again; the caller hears of it.
      if (this.#queue) unstick(this.xterm, this.#queue);
      else done?.();
      throw error;
    }
  }

  /**
   * The viewport rows changed since the last call (one reader: the TUI's
   * pane, which then reads only those rows back). "all" when untracked.
   */
  takeChangedRows(): ChangedRows {
    const changed = this.#tracksRows ? this.#changed : "all";
    this.#changed = null;
    return changed;
  }

  /** True when writes are parsed synchronously (see WriteQueue). */
  get parsesAtOnce(): boolean {
    return this.#queue !== null;
  }

  /** Resolves once everything written so far is parsed. */
  flush(): Promise<void> {
    return new Promise((resolve) => this.write("", resolve));
  }

  resize(cols: number, rows: number): void {
    if (!this.#disposed) this.xterm.resize(cols, rows);
  }

  get cols(): number {
    return this.xterm.cols;
  }

  get rows(): number {
    return this.xterm.rows;
  }

  get title(): string {
    return this.#title;
  }

  get altScreen(): boolean {
    return this.xterm.buffer.active.type === "alternate";
  }

  get cursor(): Cursor {
    const b = this.xterm.buffer.active;
    return { x: b.cursorX, y: b.cursorY };
  }

  /** Visible rows `from`..`to` (exclusive) as text with trailing blanks trimmed. */
  visibleLines(from = 0, to = this.xterm.rows): string[] {
    const b = this.xterm.buffer.active;
    const out: string[] = [];
    for (let y = Math.max(0, from); y < Math.min(to, this.xterm.rows); y++) {
      out.push(b.getLine(b.baseY + y)?.translateToString(true) ?? "");
    }
    return out;
  }

  /**
   * The last `count` lines of normal-buffer history and screen, joined
   * soft-wrapped rows, trailing blank lines dropped (`ctl read --tail`).
   */
  tail(count: number): string[] {
    const b = this.xterm.buffer.normal;
    const lines: string[] = [];
    for (let y = 0; y < b.length; y++) {
      const line = b.getLine(y);
      if (!line) continue;
      const text = line.translateToString(true);
      if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
      else lines.push(text);
    }
    while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
    return lines.slice(Math.max(0, lines.length - count));
  }

  [Symbol.dispose](): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#listeners.clear();
    this.xterm.dispose();
  }

  /**
   * @xterm/headless 6.0.0 throws in ED 1 ("erase above", CSI 1 J, and
   * DECSED CSI ? 1 J) when the cursor is in the last column of the last row
   * of a normal screen whose output has not scrolled yet (a program that
   * starts by clearing what is above it): it clears the next line's wrap
   * flag without checking that the line exists. The throw leaves the lines
   * above as they were and the emulator stuck: no later write shows
   * (measured). Here that case is erased as xterm would (the current line
   * through the cursor, every line above); the others go to xterm's own
   * handler.
   */
  #fixEraseAbove(): void {
    const internals = eraseInternals(this.xterm);
    if (!internals) return;
    for (const protect of [false, true]) {
      const id = protect ? { prefix: "?", final: "J" } : { final: "J" };
      this.xterm.parser.registerCsiHandler(id, (params) => {
        const b = this.xterm.buffer.active;
        const cols = this.xterm.cols;
        if (params[0] !== 1 || b.cursorX < cols - 1 || b.length > b.cursorY + 1) return false;
        internals._restrictCursor(cols);
        const y = b.cursorY;
        internals._eraseInBufferLine(y, 0, cols, true, protect);
        for (let row = 0; row < y; row++) internals._resetBufferLine(row, protect);
        this.#rowsChanged({ start: 0, end: y });
        return true;
      });
    }
  }

  #rowsChanged(range: { start: number; end: number } | "all"): void {
    const was = this.#changed;
    if (was === "all") return;
    this.#changed = range === "all" || was === null
      ? range
      : { start: Math.min(was.start, range.start), end: Math.max(was.end, range.end) };
  }

  #emit(event: TerminalEvent): void {
    for (const listener of this.#listeners) listener(event);
  }
}

/** `A`, `B`, `C`, `D;<exit>` (extra `;key=value` fields ignored). */
export function parseOsc133(
  data: string,
): { type: "osc133"; mark: Osc133Mark; exitCode: number | null } | null {
  const [mark, code] = data.split(";");
  if (mark !== "A" && mark !== "B" && mark !== "C" && mark !== "D") return null;
  const exitCode = mark === "D" && code !== undefined && /^\d+$/.test(code) ? Number(code) : null;
  return { type: "osc133", mark, exitCode };
}
