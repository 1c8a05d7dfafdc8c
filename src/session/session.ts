/**
 * One session (docs/architecture.md, Sessions): a PTY child and its headless emulator.
 *
 * Bytes go straight from the PTY into the emulator, never through the app
 * reducer; only derived facts leave as SessionEvents. An exited session
 * keeps its emulator (screen and scrollback) until it is disposed.
 */

import type { Cells, InputModes } from "../model/cells.ts";
import type { Cursor, ProcessInfo, ScreenView, Snapshot } from "../model/snapshot.ts";
import type { SessionStatus, WorktreeInfo } from "../model/session.ts";
import { FlowControl, type Pty, type PtyExit } from "./pty.ts";
import { type ProcessTable, type ProcStat, readProcStat, sessionMembers } from "./procinfo.ts";
import { escalate } from "../util/escalate.ts";
import { fault } from "../util/guard.ts";
import type { SessionEvent } from "./session_events.ts";
import { HeadlessTerminal } from "./terminal.ts";
import type { Tail } from "./tail.ts";
import { maxScroll, ScreenReader } from "./screen_read.ts";
import { terminalView } from "./screen_view.ts";
import { bufferRows, bufferText, searchBuffer } from "./buffer_text.ts";
import type { SearchDirection, SearchFrom, SearchHit } from "../model/search.ts";
import { type EchoAhead, InputHold } from "./input_hold.ts";
import { clampSize } from "./size_limit.ts";
import { belowRestoredRule, RESTORED_RULE } from "../model/restored.ts";

export interface SessionParams {
  readonly id: string;
  readonly name: string;
  readonly group: string | null;
  readonly command: string;
  readonly cwd: string;
  readonly worktree?: WorktreeInfo | null;
  readonly env: Readonly<Record<string, string>>;
  /** What the session's spec added to the inherited environment. */
  readonly envAdded: Readonly<Record<string, string>>;
  /** The project file that declares the session, or null. */
  readonly origin: string | null;
  readonly cols: number;
  readonly rows: number;
  readonly scrollback: number;
  /** Written into the emulator before any output of the child (a restored session's last screen). */
  readonly preface?: string;
}

export class Session implements Disposable {
  readonly id: string;
  readonly command: string;
  readonly cwd: string;
  /** The git worktree made for this session, or null. */
  readonly worktree: WorktreeInfo | null;
  readonly env: Readonly<Record<string, string>>;
  /** What the session's spec added to the inherited environment (the state file keeps it). */
  readonly envAdded: Readonly<Record<string, string>>;
  /** The project file that declares the session, or null. */
  readonly origin: string | null;
  readonly createdAt = Date.now();
  readonly terminal: HeadlessTerminal;
  /** Output backpressure between the PTY and the emulator. */
  readonly flow: FlowControl;
  name: string;
  group: string | null;
  #status: SessionStatus = "running";
  #exitCode: number | null = null;
  #signal: number | null = null;
  #listeners = new Set<(event: SessionEvent) => void>();
  #taps = new Set<(data: string) => void>();
  /** What typed keys cause while the TUI handles them (holdInput). */
  readonly #hold = new InputHold();
  #exited: Promise<void>;
  #disposed = false;
  /** A restored session whose old screen may still show above its rule (screenView). */
  #oldScreen = false;
  /** The child's start time (Linux), telling its terminal session from a later one with its pid. */
  readonly #leaderStart: number | null;

  constructor(
    params: SessionParams,
    private readonly pty: Pty,
    private readonly processes: ProcessTable,
  ) {
    this.id = params.id;
    this.name = params.name;
    this.group = params.group;
    this.command = params.command;
    this.cwd = params.cwd;
    this.worktree = params.worktree ?? null;
    this.env = params.env;
    this.#leaderStart = Deno.build.os === "linux" ? readProcStat(pty.pid)?.startTime ?? null : null;
    this.envAdded = params.envAdded;
    this.origin = params.origin;
    this.terminal = new HeadlessTerminal({
      cols: params.cols,
      rows: params.rows,
      scrollback: params.scrollback,
      reply: (data) => this.#writePty(data),
    });
    this.terminal.on((event) => this.#emit(event));
    // Queued before the child can write: the emulator applies writes in order.
    if (params.preface) this.terminal.write(params.preface);
    this.#oldScreen = params.preface !== undefined && params.preface.includes(RESTORED_RULE);
    this.flow = new FlowControl(pty);
    pty.onData((data) => {
      // The echo of keys being typed: drawn ahead when plain, parsed once the hold ends.
      if (!this.#hold.keepOutput(data, this.terminal)) this.#output(data);
    });
    this.#exited = new Promise((resolve) => {
      pty.onExit((exit) => {
        // Let the emulator apply the last bytes before reporting the exit.
        this.terminal.write("", () => {
          this.#onExit(exit);
          resolve();
        });
      });
    });
  }

  /** The child wrote output that is not on screen yet (not read, or not parsed). */
  get outputBehind(): boolean {
    return this.flow.pending > 0 || this.pty.behind?.() === true;
  }

  get pid(): number {
    return this.pty.pid;
  }

  get status(): SessionStatus {
    return this.#status;
  }

  get exitCode(): number | null {
    return this.#exitCode;
  }

  get signal(): number | null {
    return this.#signal;
  }

  get cols(): number {
    return this.terminal.cols;
  }

  get rows(): number {
    return this.terminal.rows;
  }

  /** Resolves when the child has exited and its last output is on screen. */
  get exited(): Promise<void> {
    return this.#exited;
  }

  on(listener: (event: SessionEvent) => void): Disposable {
    this.#listeners.add(listener);
    return { [Symbol.dispose]: () => this.#listeners.delete(listener) };
  }

  /**
   * Raw output as it arrives from the PTY, before parsing. For pass-through
   * consumers only (plain attach, line watchers); detection reads snapshots.
   */
  tap(listener: (data: string) => void): Disposable {
    this.#taps.add(listener);
    return { [Symbol.dispose]: () => this.#taps.delete(listener) };
  }

  /**
   * Writes input to the child. `typed` is true for keys the user pressed and
   * false for scripted text (`ctl send`), which does not count as typing (D5).
   * False when nothing was written: the session exited, or the child has not
   * read the input already waiting for it (pty_writer.ts MAX_QUEUED_INPUT).
   */
  write(data: string, typed = true): boolean {
    if (this.#status !== "running") return false;
    if (!this.#writePty(data)) return false;
    const event = { type: "input", data, typed } as const;
    if (!this.#hold.keepEvent(event)) this.#emit(event);
    return true;
  }

  /**
   * Holds what keys typed now cause, until releaseInput() (the TUI holds
   * while it handles a read of its terminal, src/tui/app.ts): the "input"
   * event of each write, and the output read meanwhile. Releasing emits
   * the events, then parses the output, in that order, as when nothing is
   * held. Meanwhile awaitEcho() reads the echo and hands plain text to the
   * TUI before anything else runs: the detection's checks and the parse
   * come after the echo is on the terminal (docs/tui.md, "The echo").
   */
  holdInput(): void {
    this.#hold.hold();
  }

  /**
   * While holding: waits up to `ms` on this thread for the child's answer
   * to the keys written meanwhile (none: returns at once), so that their
   * echo is drawn in the same event-loop turn; plain text the emulator
   * draws as it is at its cursor (HeadlessTerminal.plainTextAt) goes to
   * `ahead` with where it goes, before it is parsed.
   */
  awaitEcho(ms: number, ahead: EchoAhead): void {
    if (this.#status === "running") this.#hold.awaitEcho(ahead, () => this.pty.awaitEcho?.(ms));
  }

  /** Ends holdInput(): the events held, then the output held. */
  releaseInput(): void {
    const kept = this.#hold.release();
    if (!kept) return;
    for (const event of kept.events) this.#emit(event);
    for (const data of kept.output) this.#output(data);
  }

  /** Resizes the PTY and the emulator, within MAX_COLS×MAX_ROWS (size_limit.ts). */
  resize(width: number, height: number): void {
    const { cols, rows } = clampSize(width, height);
    if (cols < 1 || rows < 1 || (cols === this.cols && rows === this.rows)) return;
    this.terminal.resize(cols, rows);
    if (this.#status === "running") this.pty.resize(cols, rows);
    this.#emit({ type: "resize", cols, rows });
  }

  kill(signal: Deno.Signal = "SIGHUP"): void {
    if (this.#status !== "running") return;
    try {
      this.pty.kill(signal);
    } catch { /* already gone */ }
  }

  /**
   * A reader of this session's screen as cells, for one pane (a TUI client):
   * it reads again only the rows redrawn since its last read. Dispose it
   * when the pane shows another session.
   */
  screenReader<G extends Cells>(make: (cols: number, rows: number) => G): ScreenReader<G> {
    return new ScreenReader(this.terminal, make);
  }

  /**
   * Bytes of input the child has not read yet: still in our queue or in its
   * terminal's input queue (FIONREAD on the terminal). Null where the
   * terminal's queue cannot be read (no libc, macOS, Windows) or the child exited.
   */
  unreadInput(): number | null {
    return this.#status === "running" ? this.pty.unreadInput?.() ?? null : null;
  }

  /** What the program asked of its input: cursor keys, bracketed paste, mouse reports. */
  inputModes(): InputModes {
    return this.terminal.inputModes();
  }

  /**
   * A lazy view of the visible rows and title: what detection reads (rows on demand).
   * A restored session's old screen, above its rule, is not part of it (model/restored.ts).
   */
  screenView(): ScreenView {
    const view = terminalView(this.terminal);
    if (!this.#oldScreen) return view;
    const below = belowRestoredRule(view);
    if (below !== null) return below;
    // Scrolled away for good (on the alternate screen it is only hidden).
    if (!this.terminal.altScreen) this.#oldScreen = false;
    return view;
  }

  /** The visible rows as text, trailing blanks trimmed. */
  visibleLines(): string[] {
    return this.terminal.visibleLines();
  }

  /** The last `count` lines of history and screen as text (`ctl read --tail`), bounded. */
  tail(count: number): Tail {
    return this.terminal.tail(count);
  }

  /**
   * The next match of `query` in the scrollback and screen, `direction`
   * of `from` (null: the newest match), counted in lines up from the last
   * row (src/model/search.ts); null when there is none.
   */
  search(query: string, from: SearchFrom | null, direction: SearchDirection): SearchHit | null {
    return searchBuffer(this.terminal, query, from, direction);
  }

  /** Lines `top`..`bottom` (counted up from the last row) as text, for the clipboard. */
  copyText(top: number, bottom: number): string {
    return bufferText(this.terminal, top, bottom);
  }

  /** Rows of the buffer shown now: the screen plus the scrollback above it. */
  bufferRows(): number {
    return bufferRows(this.terminal);
  }

  /** How many lines of scrollback are above the screen (0 on the alternate screen). */
  maxScroll(): number {
    return maxScroll(this.terminal);
  }

  /** Where the child's cursor is on the screen (0-based). */
  get cursor(): Cursor {
    return this.terminal.cursor;
  }

  /** A full-screen program holds the alternate screen. */
  get altScreen(): boolean {
    return this.terminal.altScreen;
  }

  /** The program is drawing a frame inside a synchronized update: its screen is half drawn. */
  get midUpdate(): boolean {
    return this.terminal.midUpdate;
  }

  get title(): string {
    return this.terminal.title;
  }

  /**
   * Signals the child and everything it started in its terminal session —
   * every process group of it (bash job control puts each background job in
   * its own), `nohup`'d ones included — even after the child itself exited.
   * What called setsid has left the session and is not reached.
   */
  signalAll(signal: Deno.Signal): void {
    const groups = new Set(this.#members().map((p) => p.pgrp));
    // The child leads its own group (pgid = pid): reached even where /proc cannot be read.
    if (this.#status === "running") groups.add(this.pid);
    for (const group of groups) {
      try {
        Deno.kill(-group, signal);
      } catch { /* already gone */ }
    }
  }

  /** True while the child, or anything it started in its terminal session, runs. */
  get lingering(): boolean {
    return this.#status === "running" || this.#members().length > 0;
  }

  /**
   * Ends the child and everything it started (SIGHUP, SIGTERM, SIGKILL:
   * util/escalate.ts); resolves true once all are gone, false if something
   * outlived SIGKILL (bounded).
   */
  end(): Promise<boolean> {
    return escalate({ signal: (s) => this.signalAll(s), alive: () => this.lingering });
  }

  #members(): ProcStat[] {
    return Deno.build.os === "linux" ? sessionMembers(this.pid, this.#leaderStart) : [];
  }

  /** The picture detection reads; the foreground process only while running. */
  snapshot(): Snapshot {
    const t = this.terminal;
    return {
      cols: t.cols,
      rows: t.rows,
      lines: t.visibleLines(),
      title: t.title,
      altScreen: t.altScreen,
      cursor: t.cursor,
      foreground: this.#status === "running" ? this.#foreground() : null,
    };
  }

  /**
   * The PTY's foreground process while running (S4), without extracting the
   * screen: detection reads rows lazily (screen_view.ts) and identity here.
   */
  foreground(): ProcessInfo | null {
    return this.#status === "running" ? this.#foreground() : null;
  }

  /** An OS without process-table support yet (see procinfo.ts) gives no identity, not a crash. */
  #foreground(): ProcessInfo | null {
    try {
      return this.processes.foreground(this.pid, this.pty.foregroundGroup?.());
    } catch {
      return null;
    }
  }

  /** The child's output, to the taps and the emulator. */
  #output(data: string): void {
    const size = data.length;
    this.flow.queued(size);
    for (const tap of this.#taps) {
      try {
        tap(data);
      } catch (error) {
        // A watcher's bug must not cost the screen its output.
        fault({ name: this.id }, "an output tap", error);
      }
    }
    try {
      this.terminal.write(data, () => {
        this.flow.parsed(size);
        this.#emit({ type: "output" });
      });
    } catch (error) {
      // An emulator bug must not stop the reading of every session (the
      // emulator has called back and parses the next output again).
      fault({ name: this.id }, "the emulator parsing its output", error);
    }
  }

  [Symbol.dispose](): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.signalAll("SIGKILL");
    this.#listeners.clear();
    this.#taps.clear();
    this.terminal[Symbol.dispose]();
  }

  #writePty(data: string): boolean {
    if (this.#status !== "running") return false;
    try {
      return this.pty.write(data) !== false;
    } catch {
      return false; // the child is exiting
    }
  }

  #onExit(exit: PtyExit): void {
    this.#status = "exited";
    this.#exitCode = exit.signal ? null : exit.exitCode;
    this.#signal = exit.signal || null;
    this.#emit({ type: "exit", exitCode: this.#exitCode, signal: this.#signal });
  }

  #emit(event: SessionEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        fault({ name: this.id }, `a listener of its "${event.type}" events`, error);
      }
    }
  }
}
