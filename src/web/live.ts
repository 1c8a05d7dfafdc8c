/**
 * One page's live connection (a WebSocket; docs/web.md, "The live
 * connection"): the session list from the runtime's change stream (no
 * polling, never held back by the screen), the screen of the session it
 * watches (paced by frame_pacer.ts: the rows changed since the last frame,
 * at most one frame per `frameMs`, the last state always sent), and its
 * requests (page_requests.ts) — answer through `ctl answer`'s path
 * (re-check, receipt), send a line — unless the view is read-only.
 * Bounded: a page that does not read gets its list folded into one and its
 * screen read again later; one that takes nothing for `stallMs` is closed.
 */

import { messageOf, UserError } from "../errors.ts";
import type { RuntimeChange, RuntimeState } from "../model/runtime.ts";
import type { SessionView } from "../model/session.ts";
import { Cells } from "../model/cells.ts";
import type { Session } from "../session/session.ts";
import type { ScreenReader } from "../session/screen_read.ts";
import { type Scheduler, ticker } from "../util/ticker.ts";
import type { Owner } from "../util/guard.ts";
import { ansiCursor, ansiRow, ansiRows } from "./ansi.ts";
import { FramePacer } from "./frame_pacer.ts";
import { pageRequest } from "./page_requests.ts";
import type { WebLimits } from "./limits.ts";
import { type PageMessage, parsePageMessage, type ServerMessage, webSession } from "./wire.ts";

/** What the web view reads and acts on (the Runtime is one). */
export interface WebRuntime {
  readonly state: RuntimeState;
  readonly sessions: { get(id: string): Session | undefined };
  view(id: string): SessionView | undefined;
  subscribe(listener: (change: RuntimeChange) => void): Disposable;
  onOutput(listener: (id: string) => void): Disposable;
  classifyNow(id: string): unknown;
}

/** What a live connection writes to (a WebSocket is one). */
export interface LiveSocket {
  readonly bufferedAmount: number;
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** Lines of scrollback sent above a screen when a page starts watching it. */
const SCROLLBACK_LINES = 500;
/** How often a page held back (too much queued) is looked at again. */
const BEHIND_POLL_MS = 100;
/** Whose a failed frame is, in the crash log (util/guard.ts): the server goes on. */
const OWNER: Owner = { name: "web page" };

export class LiveConnection implements Disposable {
  readonly #runtime: WebRuntime;
  readonly #socket: LiveSocket;
  readonly #limits: WebLimits;
  readonly #readOnly: boolean;
  readonly #log: (line: string) => void;
  readonly #subs: Disposable[] = [];
  /** Changes not sent while the page was behind: the whole list goes once it drained. */
  #listBehind = false;
  /**
   * Each session as last sent: a change the page would not see (the output clock, focus)
   * sends nothing.
   */
  readonly #shown = new Map<string, string>();
  #watched: {
    id: string;
    reader: ScreenReader<Cells>;
    /** Its output listener: screens no page watches cost nothing here. */
    output: Disposable;
    grid: Cells | null;
    sent: string[];
    cursor: string;
  } | null = null;
  readonly #pacer: FramePacer;
  /** Frames go on the process's timer grid: no wake-up of their own. */
  readonly #scheduler: Scheduler;
  #frameTimer: Disposable | null = null;
  /** A frame was due while the page was behind: it goes once the page drained. */
  #frameHeld = false;
  #behindTimer: ReturnType<typeof setTimeout> | null = null;
  #stalledSince: number | null = null;
  #inFlight = 0;
  /** Messages of the page dropped because it was not reading (tests). */
  #ignored = 0;
  #closed = false;

  constructor(
    runtime: WebRuntime,
    socket: LiveSocket,
    options: {
      limits: WebLimits;
      readOnly: boolean;
      log: (line: string) => void;
      scheduler?: Scheduler;
    },
  ) {
    this.#runtime = runtime;
    this.#socket = socket;
    this.#limits = options.limits;
    this.#readOnly = options.readOnly;
    this.#log = options.log;
    this.#scheduler = options.scheduler ?? ticker;
    this.#pacer = new FramePacer({
      intervalMs: options.limits.frameMs,
      maxDrainWaitMs: options.limits.frameDrainWaitMs,
    });
  }

  /** The socket opened: the whole list, then every change. */
  open(): void {
    this.#hello();
    this.#subs.push(this.#runtime.subscribe((change) => this.#change(change)));
  }

  /** A text frame from the page. */
  message(text: string): void {
    // A page that does not take what it is sent gets nothing more for what it asks (its
    // screen, a reply): what it may make the server hold stays bounded.
    if (this.#behind()) {
      this.#ignored++;
      return;
    }
    let m: PageMessage;
    try {
      m = parsePageMessage(text);
    } catch (error) {
      this.#send({ t: "reply", req: -1, ok: false, text: `Bad message: ${messageOf(error)}` });
      return;
    }
    if (m.t === "watch") return this.#watch(m.id);
    // Reading a worktree's changes writes nothing: read-only pages may.
    if (this.#readOnly && m.t !== "diff") {
      return this.#send({ t: "reply", req: m.req, ok: false, text: "The web view is read-only" });
    }
    if (this.#inFlight >= this.#limits.maxInFlight) {
      return this.#send({
        t: "reply",
        req: m.req,
        ok: false,
        text: `${this.#limits.maxInFlight} requests already running: try again`,
      });
    }
    this.#inFlight++;
    void pageRequest(this.#runtime, m).then(
      (text) => this.#send({ t: "reply", req: m.req, ok: true, text }),
      (error) => {
        if (!(error instanceof UserError)) this.#log(`web: ${m.t}: ${messageOf(error)}`);
        this.#send({ t: "reply", req: m.req, ok: false, text: messageOf(error) });
      },
    ).finally(() => this.#inFlight--);
  }

  get ignored(): number {
    return this.#ignored;
  }

  /** Ends it with a reason the page shows. */
  bye(reason: string): void {
    this.#send({ t: "bye", reason });
    try {
      this.#socket.close(4000, reason.slice(0, 120));
    } catch { /* closed */ }
    this[Symbol.dispose]();
  }

  [Symbol.dispose](): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const s of this.#subs) s[Symbol.dispose]();
    this.#unwatch();
    this.#frameTimer?.[Symbol.dispose]();
    if (this.#behindTimer !== null) clearTimeout(this.#behindTimer);
  }

  #hello(): void {
    const state = this.#runtime.state;
    const sessions = state.sessions.map(webSession);
    this.#shown.clear();
    for (const s of sessions) this.#shown.set(s.id, JSON.stringify(s));
    this.#send({ t: "hello", readOnly: this.#readOnly, now: Date.now(), seq: state.seq, sessions });
  }

  #change(change: RuntimeChange): void {
    if (change.type !== "added" && change.type !== "updated" && change.type !== "removed") return;
    if (this.#behind()) {
      this.#listBehind = true;
      this.#holdBack();
      return;
    }
    if (this.#listBehind) {
      this.#listBehind = false;
      return this.#hello();
    }
    if (change.type === "removed") {
      this.#shown.delete(change.previous.id);
      this.#send({ t: "removed", seq: change.seq, id: change.previous.id });
    } else {
      // A screen size change reaches the watched screen as a new one.
      if (
        this.#watched?.id === change.session.id && change.type === "updated" &&
        (change.session.cols !== change.previous.cols ||
          change.session.rows !== change.previous.rows)
      ) {
        this.#watch(change.session.id);
      }
      const session = webSession(change.session);
      const text = JSON.stringify(session);
      if (this.#shown.get(session.id) === text) return;
      this.#shown.set(session.id, text);
      this.#send({ t: "session", seq: change.seq, session });
    }
  }

  #unwatch(): void {
    this.#watched?.output[Symbol.dispose]();
    this.#watched?.reader[Symbol.dispose]();
    this.#watched = null;
    this.#frameHeld = false;
    this.#pacer.reset(performance.now());
  }

  #watch(id: string | null): void {
    this.#unwatch();
    if (id === null) return;
    const session = this.#runtime.sessions.get(id);
    if (!session) return;
    const reader = session.screenReader((cols, rows) => new Cells(cols, rows));
    const read = reader.read();
    const grid = read.grid;
    const tail = session.tail(SCROLLBACK_LINES + grid.rows).lines;
    const above = tail.slice(0, Math.max(0, tail.length - grid.rows));
    const rows = ansiRows(grid);
    // Scrollback as plain lines (they scroll into the page's terminal), then the screen.
    // deno-lint-ignore no-control-regex -- a line's control characters must not drive the page
    const data = above.map((l) => l.replace(/[\x00-\x1f\x7f]/g, "") + "\r\n").join("") +
      "\r\n".repeat(grid.rows) + rows.join("") + ansiCursor(grid);
    const output = this.#runtime.onOutput((changed) => {
      if (changed === id) this.#screenChanged();
    });
    this.#watched = { id, reader, output, grid, sent: rows, cursor: ansiCursor(grid) };
    this.#pacer.reset(performance.now());
    this.#send({ t: "screen", id, cols: grid.cols, rows: grid.rows, data });
  }

  /** The watched screen changed: a frame, now or when the pacer says. */
  #screenChanged(): void {
    if (this.#closed) return;
    const wait = this.#pacer.changed(performance.now());
    if (wait !== null) this.#armFrame(wait);
  }

  /**
   * Output arrives at a grid point (the PTY reactor's batch read): a frame
   * due at once goes when that point settled, in the same wake-up; a later
   * one at the grid point of its time, shared with the rest of the server.
   */
  #armFrame(ms: number): void {
    const due = () => {
      this.#frameTimer = null;
      this.#frameDue();
    };
    if (ms === 0 && this.#scheduler.whenSettled(due, OWNER)) return;
    this.#frameTimer = this.#scheduler.after(ms, due, OWNER);
  }

  #frameDue(): void {
    if (this.#closed) return;
    // Draining: the socket has not written out what it was given yet.
    const step = this.#pacer.due(performance.now(), this.#socket.bufferedAmount > 0);
    if (step === null) return;
    if (step !== "send") return this.#armFrame(step.waitMs);
    if (this.#behind()) {
      this.#frameHeld = true;
      return this.#holdBack();
    }
    this.#frame();
  }

  /** Something was held back from a page that is behind: looked at again until it drained. */
  #holdBack(): void {
    if (this.#behindTimer !== null || this.#closed) return;
    this.#behindTimer = setTimeout(() => {
      this.#behindTimer = null;
      this.#drained();
    }, BEHIND_POLL_MS);
  }

  #drained(): void {
    if (this.#closed) return;
    if (this.#behind()) {
      const now = performance.now();
      this.#stalledSince ??= now;
      if (now - this.#stalledSince > this.#limits.stallMs) {
        this.#log(`web: a page took nothing for ${this.#limits.stallMs / 1000} s: closed`);
        return this.bye("Closed: the page took nothing for too long");
      }
      return this.#holdBack();
    }
    this.#stalledSince = null;
    if (this.#listBehind) {
      this.#listBehind = false;
      this.#hello();
    }
    if (this.#frameHeld) {
      this.#frameHeld = false;
      this.#screenChanged();
    }
  }

  /** The rows of the watched screen changed since the last frame. */
  #frame(): void {
    const w = this.#watched;
    if (!w) return;
    const read = w.reader.read(0, w.grid);
    if (read.grid !== w.grid) {
      // The screen changed size: drawn from scratch.
      return this.#watch(w.id);
    }
    // Only the rows the reader read again (a spinner: one of them), and of those the ones
    // that differ from what the page has.
    const [from, to] = read.rows ?? [0, read.grid.rows];
    let data = "";
    for (let y = from; y < to; y++) {
      const row = ansiRow(read.grid, y);
      if (row !== w.sent[y]) data += row;
      w.sent[y] = row;
    }
    const cursor = ansiCursor(read.grid);
    if (data === "" && cursor === w.cursor) return;
    w.cursor = cursor;
    this.#send({ t: "rows", id: w.id, data: data + cursor });
  }

  #behind(): boolean {
    return this.#socket.bufferedAmount > this.#limits.maxQueuedBytes;
  }

  #send(m: ServerMessage): void {
    if (this.#closed && m.t !== "bye") return;
    if (this.#socket.readyState !== 1) return;
    try {
      this.#socket.send(JSON.stringify(m));
    } catch { /* closing */ }
  }
}
