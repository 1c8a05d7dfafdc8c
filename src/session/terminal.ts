/**
 * One headless xterm per session (docs/architecture.md, Sessions): visible screen, bounded
 * scrollback, title, alternate-screen flag, cursor, query replies.
 *
 * Owns: the emulator and its OSC handlers. Must not import tui/ or runtime/.
 * Invariant: the OSC 7501 `?` reply is written through `reply` synchronously
 * from the handler, so it reaches the PTY before the emulator's own DA1
 * reply to a probe sent in the same write (fixtures/captures/claude-tool-osc7501).
 */

import xterm from "@xterm/headless";
import unicode11 from "@xterm/addon-unicode11";
import { OSC7501_QUERY_REPLY } from "../model/agent.ts";
import type { Cursor } from "../model/snapshot.ts";
import type { Osc133Mark, TerminalEvent, TerminalListener } from "./terminal_events.ts";
import type { InputModes, MouseTracking } from "../model/cells.ts";
import { readTail, type Tail } from "./tail.ts";
import { History } from "./history.ts";
import type { RowSource } from "./row_codec.ts";
import {
  activeLines,
  fixEraseAbove,
  mouseEncoding,
  plainPrintAt,
  refreshRows,
  trimAlternate,
  unstick,
  type WriteQueue,
  writeQueue,
} from "./xterm_internals.ts";

const { Terminal } = xterm;
export type XTerm = InstanceType<typeof Terminal>;

export const DEFAULT_SCROLLBACK = 5000;

/** The emulator's Unicode width version (the addon's; util/width_table.ts follows it). */
export const UNICODE_VERSION = "11";

/** Colours we report to OSC 10/11 queries (opencode waits 6 s without them). */
const FG_REPLY = "rgb:d0d0/d0d0/d0d0";
const BG_REPLY = "rgb:1c1c/1c1c/1c1c";

export interface TerminalOptions {
  readonly cols: number;
  readonly rows: number;
  readonly scrollback?: number;
  /** Rows of scrollback the emulator keeps itself before the compact store (history.ts; tests). */
  readonly margin?: number;
  /**
   * Where query replies go (the PTY). Omit to answer nothing, as
   * `lazyshell detect` does when replaying a capture.
   */
  readonly reply?: (data: string) => void;
}

/**
 * Viewport rows `start`..`end` (inclusive) redrawn since the last look, or
 * "all" (scrolled, resized, switched buffer, or not tracked), or null.
 */
export type ChangedRows = { readonly start: number; readonly end: number } | "all" | null;

/** One reader's view of which rows changed (each TUI client reading a screen has its own). */
export interface RowTracker extends Disposable {
  /** The viewport rows changed since the last take(); "all" at the first one, or when untracked. */
  take(): ChangedRows;
}

interface Tracked {
  changed: ChangedRows;
}

/**
 * How long a synchronized update (`CSI ? 2026 h` … `l`) may hold back its
 * half-drawn frame from detection and the TUI; a program that never ends one
 * is read as it is after this, as a terminal shows it after its own timeout.
 */
export const MID_UPDATE_MAX_MS = 1000;

/** Printable ASCII only: each character one cell, drawn as it is. */
const PLAIN = /^[\x20-\x7e]+$/;

export class HeadlessTerminal implements Disposable {
  readonly xterm: XTerm;
  /**
   * `xterm.buffer`, read once: its getter checks the proposed-API option
   * through xterm's options proxy on every call (10 µs a read of a
   * screen, profiled on the echo path).
   */
  readonly buffer: XTerm["buffer"];
  /** The scrollback: the compact store, then the emulator's own rows. */
  readonly history: History;
  /** Row `index` of the active buffer as cell words, null without xterm's internals (screen_read.ts). */
  readonly rawLine: ((index: number) => RowSource | undefined) | null;
  readonly #queue: WriteQueue | null;
  /** Where printable ASCII would print now (xterm_internals.ts), null without the internals. */
  readonly #printAt: (() => Cursor | null) | null;
  #listeners = new Set<TerminalListener>();
  #title = "";
  #disposed = false;
  #tracksRows: boolean;
  #trackers = new Set<Tracked>();

  constructor(options: TerminalOptions) {
    const reply = options.reply;
    const scrollback = options.scrollback ?? DEFAULT_SCROLLBACK;
    this.xterm = new Terminal({
      cols: options.cols,
      rows: options.rows,
      scrollback,
      allowProposedApi: true,
      windowOptions: { getWinSizeChars: true },
    });
    // Emoji and other wide characters as modern terminals draw them (2 cells), not
    // xterm's default Unicode 6 widths; the TUI and plugin views measure text with
    // the same table (src/util/width.ts, generated from this addon).
    this.buffer = this.xterm.buffer;
    this.xterm.loadAddon(new unicode11.Unicode11Addon());
    this.xterm.unicode.activeVersion = UNICODE_VERSION;
    this.history = new History(this.xterm, scrollback, options.margin);
    this.#queue = writeQueue(this.xterm);
    this.rawLine = activeLines(this.xterm);
    this.#printAt = plainPrintAt(this.xterm);
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
    this.buffer.onBufferChange((b) => {
      this.#rowsChanged("all");
      this.#emit({ type: "alt-screen", active: b.type === "alternate" });
    });
    const parser = this.xterm.parser;
    fixEraseAbove(
      this.xterm,
      (rows) => this.#rowsChanged(rows),
      (index) => this.history.clearWrap(index),
    );
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
   * Follows which viewport rows change, for one reader (a TUI pane then
   * reads only those rows back). Dispose it when done reading.
   */
  trackRows(): RowTracker {
    const tracked: Tracked = { changed: "all" };
    const trackers = this.#trackers;
    trackers.add(tracked);
    const tracks = this.#tracksRows;
    return {
      take() {
        const changed = tracks ? tracked.changed : "all";
        tracked.changed = null;
        return changed;
      },
      [Symbol.dispose]: () => trackers.delete(tracked),
    };
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
    if (this.#disposed) return;
    const before = this.xterm.cols;
    this.history.resize(cols, rows);
    if (this.xterm.cols < before) trimAlternate(this.xterm, this.xterm.cols);
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
    return this.buffer.active.type === "alternate";
  }

  /**
   * The program is inside a synchronized update (`CSI ? 2026 h` … `l`):
   * what is on screen is a frame half drawn, which a terminal would not show.
   */
  get midUpdate(): boolean {
    return this.xterm.modes.synchronizedOutputMode;
  }

  /** What the program asked of its input (how keys, pastes and the mouse are encoded for it). */
  inputModes(): InputModes {
    const modes = this.xterm.modes;
    return {
      applicationCursorKeys: modes.applicationCursorKeysMode,
      bracketedPaste: modes.bracketedPasteMode,
      mouseTracking: modes.mouseTrackingMode as MouseTracking,
      mouseEncoding: mouseEncoding(this.xterm),
    };
  }

  /**
   * Where `text` would be drawn if it were written now, when it is
   * printable ASCII that the emulator draws as it is, in the default pen,
   * with nothing before it still to parse, and ends before the last column
   * (no wrap); null otherwise. A key's echo is drawn on that (docs/tui.md,
   * "The echo").
   */
  plainTextAt(text: string): Cursor | null {
    if (this.#disposed || this.#printAt === null || this.#queue === null) return null;
    if (this.#queue._pendingData > 0 || !PLAIN.test(text)) return null;
    const at = this.#printAt();
    return at && at.x + text.length < this.xterm.cols ? at : null;
  }

  get cursor(): Cursor {
    const b = this.buffer.active;
    return { x: b.cursorX, y: b.cursorY };
  }

  /** Visible rows `from`..`to` (exclusive) as text with trailing blanks trimmed. */
  visibleLines(from = 0, to = this.xterm.rows): string[] {
    const b = this.buffer.active;
    const out: string[] = [];
    for (let y = Math.max(0, from); y < Math.min(to, this.xterm.rows); y++) {
      out.push(b.getLine(b.baseY + y)?.translateToString(true) ?? "");
    }
    return out;
  }

  /**
   * The last `count` lines of normal-buffer history and screen, joined
   * soft-wrapped rows, trailing blank lines dropped, within a byte budget
   * (`ctl read --tail`; tail.ts: read from the end, costs what it returns).
   */
  tail(count: number, maxBytes?: number): Tail {
    return readTail(this.history.normalRows(), count, maxBytes);
  }

  [Symbol.dispose](): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#listeners.clear();
    this.#trackers.clear();
    this.xterm.dispose();
  }

  #rowsChanged(range: { start: number; end: number } | "all"): void {
    for (const t of this.#trackers) {
      const was = t.changed;
      if (was === "all") continue;
      t.changed = range === "all" || was === null
        ? range
        : { start: Math.min(was.start, range.start), end: Math.max(was.end, range.end) };
    }
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
