/**
 * The TUI loop (docs/tui.md): one reducer, effects as data, a coalesced
 * renderer. Anything that changes the state invalidates; at most one frame
 * per tick (~16 ms) is built and diffed, and nothing is written when
 * nothing changed. One animation clock (~100 ms) drives every spinner and
 * runs only while something spins (1 s under reduce_motion, for the turn
 * durations).
 *
 * Owns: the TuiState, the key decoder, the frame/clock/Esc timers, the
 * subscriptions to the runtime. Does not own the host terminal or the
 * runtime (main.ts does) so it can be driven in tests.
 *
 * Given an `owner` (the server's client), each of its timers and listeners
 * is an entry point of that client (util/guard.ts): what throws there is
 * the client's failure, reset (`reset()`) or dropped by the server, never
 * its caller's.
 */

import type { Config } from "../config/config.ts";
import type { Frame } from "./core/frame.ts";
import { echoPane, recordEchoAhead } from "./core/echo_ahead.ts";
import { diff } from "./core/diff.ts";
import { KeyDecoder } from "./core/keys.ts";
import { type Keymap, resolveKeymap } from "./core/keymap.ts";
import { problemsMessage } from "./core/problems_message.ts";
import { layout, type Rect, sessionSize } from "./core/layout.ts";
import { clockMs } from "./core/clock.ts";
import { repaintPane, view } from "./core/view/mod.ts";
import {
  hidesSomething,
  type PaneWindow,
  paneWindow,
  sameWindow,
  windowAtBottom,
  windowRows,
} from "./core/view/pane_window.ts";
import type { Tab } from "./core/tab.ts";
import type { Cursor } from "../model/snapshot.ts";
import { initialTuiState, type TuiState } from "../model/tui.ts";
import { LOCAL_CLIENT, type Runtime } from "../runtime/runtime.ts";
import { Screens } from "./screens.ts";
import { isTiled } from "./core/view/tiles.ts";
import { tiles, tileSizes } from "./core/view/tiles_layout.ts";
import { type EffectContext, runEffect } from "./effects.ts";
import type { TuiEvent } from "./core/events.ts";
import { sameDrawing, update } from "./core/update.ts";
import { ticker } from "../util/ticker.ts";
import { MID_UPDATE_MAX_MS } from "../session/terminal.ts";
import { osc52 } from "./clipboard.ts";
import type { SessionRestore } from "../restore/restore.ts";
import { offerEvent } from "./restore_effects.ts";
import { guarded, type Owner } from "../util/guard.ts";
import { faults } from "../util/fault_injection.ts";
import type { HostSource } from "../model/hosts.ts";

export const FRAME_MS = 16;
export const SPIN_MS = 100;
export const ESC_TIMEOUT_MS = 25;
/** Output this soon after a keystroke in terminal mode is the echo: drawn at once. */
export const ECHO_WINDOW_MS = 150;
/** How long a read of typed keys may block the event loop waiting for their echo. */
const ECHO_WAIT_MS = 2;
/** How long a status-line message stays (a key in navigation mode clears it sooner). */
export const MESSAGE_MS = 6000;

export interface TuiAppOptions {
  readonly runtime: Runtime;
  /** Writes to the host terminal (the one stdout writer). */
  readonly write: (text: string) => void;
  readonly cols: number;
  readonly rows: number;
  readonly tabs?: readonly Tab[];
  readonly now?: () => number;
  /** Where this client's new sessions start (default: the runtime's directory). */
  readonly cwd?: string;
  /** This client's id, when several draw one runtime (default: the only, local one). */
  readonly client?: string;
  /** `d`: leave this client, the sessions keep running (default: like quit). */
  readonly detach?: () => void;
  /** What the last client that left was looking at: a new attach starts there. */
  readonly resume?: ViewPlace | null;
  /**
   * Called once a typed key's echo is written to the terminal, before the
   * rest of the turn's work: the server yields the CPU there, so that the
   * kernel passes the echo on first (docs/tui.md, "The echo").
   */
  readonly afterEcho?: () => void;
  /** The client's terminal runs inside tmux: OSC 52 copies are wrapped for passthrough. */
  readonly tmux?: boolean;
  /** Sessions an earlier server saved: offered at start when some wait (docs/restore.md). */
  readonly restore?: SessionRestore;
  /** Whose failures its timers and listeners are (util/guard.ts); none: they throw (tests). */
  readonly owner?: Owner;
  /**
   * The client's output is behind (src/server/client_output.ts): while
   * `behind()`, frames are skipped, and once `drained()` resolves one is
   * drawn, against the last frame written (docs/architecture.md, Bounds).
   */
  readonly backlog?: {
    readonly behind: () => boolean;
    readonly drained: () => Promise<void>;
  };
  /** Other hosts the server watches, and attaching to theirs (docs/remote.md, "In the TUI"). */
  readonly hosts?: HostSource;
  readonly attachRemote?: (host: string, id: string) => Promise<string | null>;
}

/** Where a client was: its selected session and tab. */
export interface ViewPlace {
  readonly selected: string | null;
  readonly tab: number;
}

export class TuiApp implements Disposable {
  state: TuiState;
  /** Frames written (benchmarks read it). */
  frames = 0;
  /** Frames not drawn because the client's output was behind (options.backlog). */
  skipped = 0;
  /** Config `keys:` applied to the key table; a reload replaces it (reconfigure()). */
  keymap: Keymap;
  readonly #runtime: Runtime;
  readonly #write: (text: string) => void;
  readonly #afterEcho: (() => void) | undefined;
  readonly #now: () => number;
  #decoder = new KeyDecoder();
  readonly #subs: Disposable[] = [];
  #tabs: readonly Tab[];
  #tabSubs: Disposable[] = [];
  #started = false;
  #prev: Frame | null = null;
  /** The frame before #prev and the last screen read: reused, not reallocated, each frame. */
  #spare: Frame | null = null;
  /** Frame rows where #spare may differ from #prev, [from, to); null: any. */
  #spareBehind: readonly [number, number] | null = null;
  /** What #reportShown() last told the runtime. */
  #shownKey = "";
  /** The window of the selected session's screen the last frame showed (not tiled). */
  #window: PaneWindow | null = null;
  /** The last pane size #paneSize() worked out, and for which state and session. */
  #sized: { state: TuiState; id: string | undefined; size: PaneSize } | null = null;
  /** Reads the shown sessions' screens (only the rows redrawn since their last read). */
  #screens: Screens;
  /** The state the last frame was drawn from. */
  #drawn: TuiState | null = null;
  #sync = false;
  #frameTimer: ReturnType<typeof setTimeout> | undefined;
  #escTimer: ReturnType<typeof setTimeout> | undefined;
  #clock: Disposable | undefined;
  #clockMs = 0;
  #messageTimer: ReturnType<typeof setTimeout> | undefined;
  /** Draws a session's half-drawn frame after all if its synchronized update never ends. */
  #midUpdate: ReturnType<typeof setTimeout> | undefined;
  #lastFrame = 0;
  /** The session whose echo #writeAhead may draw (the one the last keys were typed into). */
  #aheadOf: string | null = null;
  /** When the user last typed into a session (terminal mode), for the echo fast path. */
  #typedAt = -Infinity;
  #echoFrame = false;
  /** A frame is due in this wake-up (at the end of the grid point, or in a microtask). */
  #immediate = false;
  #done = Promise.withResolvers<number>();
  readonly #effects: EffectContext;
  readonly #resume: ViewPlace | null;
  #disposed = false;
  readonly #owner: Owner | undefined;
  /** The frame timer's and the frame due in this wake-up's callbacks (entry points). */
  readonly #drawTimer: () => void;
  readonly #drawDue: () => void;
  readonly #backlog: TuiAppOptions["backlog"];
  /** A frame was skipped: one is drawn once the client's output drains. */
  #owed = false;
  readonly #drainedDraw: () => void;
  readonly #hosts: HostSource | null;

  constructor(options: TuiAppOptions) {
    this.#runtime = options.runtime;
    this.#write = options.write;
    this.#afterEcho = options.afterEcho;
    this.#now = options.now ?? Date.now;
    this.#tabs = options.tabs ?? [];
    this.#screens = new Screens((id) => options.runtime.sessions.get(id));
    this.#resume = options.resume ?? null;
    this.#owner = options.owner;
    this.#drawTimer = this.#entry("draw", () => void this.#render());
    this.#drawDue = this.#entry("draw", () => {
      if (this.#immediate) this.#render();
    });
    this.#backlog = options.backlog;
    this.#drainedDraw = this.#entry("draw", () => {
      this.#owed = false;
      this.#invalidate();
    });
    this.#effects = {
      runtime: options.runtime,
      client: options.client ?? LOCAL_CLIENT,
      cwd: options.cwd ?? null,
      detach: () => (options.detach ?? (() => this.quit(0)))(),
      tabs: () => this.#tabs,
      dispatch: (e) => this.dispatch(e),
      paneSize: (id) => this.#paneSize(id),
      windowOf: (id) => this.#windowOf(id),
      bodySize: () => layout(this.state.cols, this.state.rows).body,
      scrollOf: (id) => this.state.scroll[id] ?? 0,
      quit: (code) => this.quit(code),
      clipboard: (text) => this.#write(osc52(text, options.tmux ?? false)),
      restore: options.restore ?? null,
      remote: {
        hosts: options.hosts ?? null,
        dispatch: (e) => this.dispatch(e),
        attach: options.attachRemote ?? null,
      },
    };
    this.#hosts = options.hosts ?? null;
    const config = options.runtime.config;
    // Overrides it could not apply are among the set-up problems (state.problems).
    this.keymap = resolveKeymap(config.keys).keymap;
    this.state = initialTuiState(options.cols, options.rows, this.#now(), config.reduce_motion);
    const problems = problemsMessage(options.runtime.state.problems);
    if (problems) this.state = { ...this.state, message: { text: problems, error: true } };
  }

  /** Resolves with the exit code once the user quits (or quit() is called). */
  get done(): Promise<number> {
    return this.#done.promise;
  }

  start(): void {
    this.#started = true;
    const runtime = this.#runtime;
    // The runtime's state (sessions, agent states, stats lines, watchers, output clocks).
    this.#subs.push(runtime.subscribe(() => this.#syncRows(), this.#owner));
    const hosts = this.#hosts;
    const syncHosts = () => this.dispatch({ type: "hosts", hosts: hosts!.table() });
    if (hosts) this.#subs.push(hosts.subscribe(this.#entry("hosts", syncHosts)));
    if (hosts) syncHosts();
    // The screen of the session shown here changed: redraw its pane.
    this.#subs.push(runtime.onOutput((id) => this.#onOutput(id), this.#owner));
    this.#watchTabs();
    this.#syncRows();
    if (this.#resume) this.dispatch({ type: "resume", ...this.#resume });
    this.#reportShown();
    const restore = this.#effects.restore;
    const problem = restore?.unsaidProblem() ?? null;
    if (restore && (restore.pendingCount > 0 || problem)) {
      this.dispatch(offerEvent(restore, problem));
    }
    this.#render();
  }

  /** The last frame drawn: what this client's terminal shows (tests compare it). */
  get frame(): Frame | null {
    return this.#prev;
  }

  /** Where this client is now (kept by the server for the next attach). */
  get place(): ViewPlace {
    return { selected: this.state.selected, tab: this.state.tab };
  }

  /**
   * Sets the plugin tabs (they may start after the first frame: their
   * processes cost start-up time the screen need not wait for).
   */
  setTabs(tabs: readonly Tab[]): void {
    if (this.#disposed) return;
    this.#tabs = tabs;
    if (this.#started) this.#watchTabs();
  }

  #watchTabs(): void {
    for (const s of this.#tabSubs) s[Symbol.dispose]();
    this.#tabSubs = this.#tabs.map((tab) =>
      tab.onChange(this.#entry("tab change", () => {
        this.#syncTabs();
        if (this.state.tab > 0) this.#invalidate();
      }))
    );
    this.#syncTabs();
    const body = layout(this.state.cols, this.state.rows).body;
    for (const tab of this.#tabs) tab.resize(body.width, body.height);
  }

  dispatch(event: TuiEvent): void {
    if (this.#disposed) return;
    const { state, effects } = update(this.state, event, this.keymap);
    const changed = state !== this.state;
    const message = state.message;
    if (message !== this.state.message) {
      clearTimeout(this.#messageTimer);
      this.#messageTimer = message
        ? setTimeout(
          this.#entry(
            "message timer",
            () => this.dispatch({ type: "message-expired", text: message.text }),
          ),
          MESSAGE_MS,
        )
        : undefined;
    }
    this.state = state;
    for (const fx of effects) runEffect(this.#effects, fx);
    if (changed) {
      this.#reportShown();
      this.#invalidate();
    }
    this.#syncClock();
  }

  /**
   * Tells the runtime which sessions this client shows and at what pane size,
   * when that changed (config `window_size`: src/runtime/window_size.ts).
   */
  #reportShown(): void {
    if (!this.#started || this.#disposed) return;
    const s = this.state;
    const sizes = new Map<string, { cols: number; rows: number }>();
    for (const t of tileSizes(s)) sizes.set(t.id, { cols: t.cols, rows: t.rows });
    if (s.selected !== null && !sizes.has(s.selected)) {
      sizes.set(s.selected, sessionSize(s.cols, s.rows));
    }
    const key = JSON.stringify([...sizes]);
    if (key === this.#shownKey) return;
    this.#shownKey = key;
    this.#runtime.show(this.#effects.client, sizes);
  }

  /** Where session `id`'s pane here starts in its screen, as last drawn (pane_window.ts). */
  #windowOf(id: string): { top: number; left: number } {
    const s = this.state;
    const grid = this.#screens.last(id);
    const rect = isTiled(s) ? focusedRectOf(s, id) : layout(s.cols, s.rows).pane;
    if (!grid || !rect) return { top: 0, left: 0 };
    return paneWindow(grid, rect.width, rect.height, windowAtBottom(s, id));
  }

  /** The size of the pane session `id` is shown in here (each key claims it: kept per state). */
  #paneSize(id?: string): PaneSize {
    const last = this.#sized;
    if (last?.state === this.state && last.id === id) return last.size;
    const tile = tileSizes(this.state).find((t) => t.id === id);
    const size = tile
      ? { cols: tile.cols, rows: tile.rows }
      : sessionSize(this.state.cols, this.state.rows);
    this.#sized = { state: this.state, id, size };
    return size;
  }

  /** Bytes from the host terminal's stdin. */
  feed(text: string): void {
    clearTimeout(this.#escTimer);
    if (faults) faults.hit("input", this.#effects.client);
    const typedInto = this.state.mode === "terminal" ? this.state.selected : null;
    if (typedInto) {
      this.#typedAt = this.#now();
      this.#echoFrame = false;
    }
    // What the keys cause waits until their echo is drawn, when it comes quickly (this turn).
    const session = typedInto ? this.#runtime.sessions.get(typedInto) : undefined;
    session?.holdInput();
    try {
      this.#handle(this.#decoder.feed(text));
      this.#aheadOf = typedInto;
      session?.awaitEcho(ECHO_WAIT_MS, this.#writeAhead);
    } finally {
      session?.releaseInput();
    }
    if (this.#decoder.pending) {
      this.#escTimer = setTimeout(
        this.#entry("input", () => this.#handle(this.#decoder.flush())),
        ESC_TIMEOUT_MS,
      );
    }
  }

  resize(cols: number, rows: number): void {
    this.dispatch({ type: "resize", cols, rows });
  }

  /**
   * The config was reloaded (src/server/reload.ts): the keys and the motion
   * setting apply from the next key and frame on.
   */
  reconfigure(config: Config): void {
    if (this.#disposed) return;
    this.keymap = resolveKeymap(config.keys).keymap;
    if (this.state.reduceMotion !== config.reduce_motion) {
      this.state = { ...this.state, reduceMotion: config.reduce_motion };
      this.#syncClock();
    }
    // The hint bar and help name the keys: drawn again whole.
    this.#drawn = null;
    this.#invalidate();
  }

  /** Forgets the last frame and draws everything again (after an interactive plugin exec). */
  redraw(): void {
    this.#prev = null;
    this.#invalidate();
  }

  /**
   * Starts drawing over from nothing after a failure (util/guard.ts): no
   * frame, screen read or half-typed key sequence of before is trusted.
   */
  reset(): void {
    if (this.#disposed) return;
    clearTimeout(this.#frameTimer);
    clearTimeout(this.#escTimer);
    clearTimeout(this.#midUpdate);
    this.#frameTimer = this.#midUpdate = undefined;
    this.#immediate = this.#echoFrame = false;
    this.#decoder = new KeyDecoder();
    this.#screens[Symbol.dispose]();
    this.#screens = new Screens((id) => this.#runtime.sessions.get(id));
    this.#prev = this.#spare = null;
    this.#spareBehind = null;
    this.#window = null;
    this.#sized = null;
    this.#drawn = null;
    this.#invalidate();
  }

  quit(code: number): void {
    this.#done.resolve(code);
  }

  /** Draws now if something is pending (tests and benchmarks). */
  flush(): void {
    if (this.#frameTimer !== undefined || this.#immediate) {
      clearTimeout(this.#frameTimer);
      this.#render();
    }
  }

  [Symbol.dispose](): void {
    if (this.#disposed) return;
    this.#disposed = true;
    clearTimeout(this.#frameTimer);
    clearTimeout(this.#escTimer);
    clearTimeout(this.#messageTimer);
    clearTimeout(this.#midUpdate);
    this.#clock?.[Symbol.dispose]();
    this.#screens[Symbol.dispose]();
    for (const s of this.#subs) s[Symbol.dispose]();
    for (const s of this.#tabSubs) s[Symbol.dispose]();
  }

  #handle(events: ReturnType<KeyDecoder["feed"]>): void {
    for (const input of events) {
      if (input.type === "mode-report") {
        if (input.mode === 2026) this.#sync = input.value === 1 || input.value === 2;
        continue;
      }
      this.dispatch({ type: "input", input });
    }
  }

  /**
   * A typed key's echo, written to the terminal before the session's
   * emulator parses it (docs/tui.md, "The echo"), when the last frame is
   * still what the terminal shows of this state (no frame due since) and
   * recordEchoAhead places it there.
   */
  readonly #writeAhead = (text: string, at: Cursor): void => {
    const id = this.#aheadOf;
    const prev = this.#prev;
    const s = this.state;
    if (id === null || !prev || this.#drawn !== s || this.#echoFrame || this.#disposed) return;
    if (this.#owed) return; // the terminal is behind the state: the next frame says it all
    if (this.#frameTimer !== undefined || this.#immediate || this.#midUpdate !== undefined) return;
    const pane = echoPane(s, id);
    if (!pane) return;
    // A pane showing a window of a bigger screen: the cells of the window, its cursor there. Not
    // on the row of the corner that says what is hidden.
    const w = this.#window;
    if (w && hidesSomething(w) && at.y === w.top) return;
    const shown = w ? { ...pane, width: w.cols, height: w.rows } : pane;
    const cursor = w ? { x: at.x - w.left, y: at.y - w.top } : at;
    if (!recordEchoAhead(prev, shown, text, cursor)) return;
    this.#write(text);
    this.#afterEcho?.();
    // The row written now differs from the frame before last too.
    const y = prev.cursor!.y;
    const behind = this.#spareBehind;
    if (behind) this.#spareBehind = [Math.min(behind[0], y), Math.max(behind[1], y + 1)];
  };

  #onOutput(id: string): void {
    if (faults) faults.hit("listener", this.#effects.client);
    const s = this.state;
    if (s.tab !== 0) return;
    const shown = s.selected === id || (isTiled(s) && tiles(s).some((t) => t.id === id));
    if (!shown) return;
    // A frame half drawn inside a synchronized update waits for the update's end (more output),
    // as a terminal holds it back; at most MID_UPDATE_MAX_MS (docs/detection.md, Scheduling).
    if (this.#runtime.sessions.get(id)?.midUpdate) {
      this.#midUpdate ??= setTimeout(
        this.#entry("draw", () => {
          this.#midUpdate = undefined;
          this.#invalidate();
        }),
        MID_UPDATE_MAX_MS,
      );
      return;
    }
    this.#invalidate(s.selected === id && s.mode === "terminal");
  }

  #syncRows(): void {
    this.dispatch({ type: "sessions", sessions: this.#runtime.state.sessions });
  }

  #syncTabs(): void {
    this.dispatch({
      type: "tabs",
      tabs: this.#tabs.map((t) => ({
        id: t.id,
        title: t.title,
        capturing: t.capturing,
        commands: t.commands,
      })),
    });
  }

  /**
   * Schedules one frame, at most one per FRAME_MS. Exception: the first
   * change of the focused session's screen right after a keystroke (its
   * echo) is drawn at once, as tmux does; a flood still waits its tick.
   */
  #invalidate(echo = false): void {
    if (this.#disposed) return;
    const now = this.#now();
    if (echo && !this.#echoFrame && now - this.#typedAt < ECHO_WINDOW_MS) {
      this.#echoFrame = true;
      clearTimeout(this.#frameTimer);
      this.#frameTimer = undefined;
      if (this.#render()) this.#afterEcho?.();
      return;
    }
    if (this.#frameTimer !== undefined || this.#immediate) return;
    const wait = this.#lastFrame + FRAME_MS - now;
    if (wait > 0) this.#frameTimer = setTimeout(this.#drawTimer, wait);
    else {
      // Drawn in this wake-up, once what woke it is done: at the end of a
      // grid point (every session read in it is parsed by then), else after
      // the current task. A setTimeout(0) or a message-port turn would cost
      // Deno's loop another wake-up (measured: a message per 50 ms tick
      // doubles the CPU of an idle ticking loop, 0.37 → 0.83 %).
      this.#immediate = true;
      if (!ticker.whenSettled(this.#drawDue, this.#owner)) queueMicrotask(this.#drawDue);
    }
  }

  /** Draws a frame; true when it wrote something. */
  #render(): boolean {
    clearTimeout(this.#frameTimer);
    this.#frameTimer = undefined;
    this.#immediate = false;
    if (this.#disposed) return false;
    // Frames coalesce while the client has not taken the last one: skipped, never half sent,
    // so #prev stays what the client will show and the next diff is against it.
    const backlog = this.#backlog;
    if (backlog?.behind()) {
      this.skipped++;
      this.#lastFrame = this.#now(); // the next try waits its tick too
      if (!this.#owed) {
        this.#owed = true;
        void backlog.drained().then(this.#drainedDraw);
      }
      return false;
    }
    this.#lastFrame = this.#now();
    const s = this.state;
    const { screen, rows, tiles: screens } = this.#screens.forFrame(s);
    if (faults) faults.hit("draw", this.#effects.client);
    let tabLines = null;
    if (s.tab > 0) {
      const body = layout(s.cols, s.rows).body;
      tabLines = this.#tabs[s.tab - 1]?.render(body.width, body.height) ?? null;
    }
    // This client's window of the session's screen (pane_window.ts): the rows the session
    // redrew are rows of the pane only while it shows the same window as the last frame did.
    const pane = layout(s.cols, s.rows).pane;
    const window = screen && !screens && s.selected
      ? paneWindow(screen, pane.width, pane.height, windowAtBottom(s, s.selected))
      : null;
    const dirty = sameWindow(window, this.#window) ? rows : null;
    this.#window = window;
    // Same state as the last frame: only the session's screen can have changed.
    const paneOnly = this.#prev && sameDrawing(this.#drawn, s)
      ? repaintPane(
        s,
        this.#prev,
        screen,
        this.#spare,
        dirty ?? undefined,
        this.keymap,
        screens,
        this.#spareBehind,
      )
      : null;
    const frame = paneOnly ??
      view(
        s,
        { keymap: this.keymap, screen, tabLines, ...(screens ? { screens } : {}) },
        this.#spare,
      );
    this.#drawn = s;
    const changed = paneOnly && dirty && window ? paneRows(pane, windowRows(window, dirty)) : null;
    const out = diff(this.#prev, frame, {
      sync: this.#sync,
      // Only frames (and pen- and cursor-neutral OSCs) reach the terminal between two frames;
      // whoever writes otherwise pauses them and calls redraw() (server.ts handover).
      continued: true,
      rows: changed ?? undefined,
    });
    this.#spare = this.#prev;
    this.#prev = frame;
    // The rows diff() was told are the only ones where this frame differs from the last.
    this.#spareBehind = this.#spare ? changed : null;
    if (!out) return false;
    this.#write(out);
    this.frames++;
    return true;
  }

  #syncClock(): void {
    const want = clockMs(this.state, SPIN_MS);
    if (want === this.#clockMs || this.#disposed) return;
    this.#clock?.[Symbol.dispose]();
    this.#clock = undefined;
    this.#clockMs = want;
    if (want > 0) {
      // On the shared grid: the spinners move in the wake-ups that read the sessions' output.
      this.#clock = ticker.every(
        want,
        () => this.dispatch({ type: "tick", now: this.#now() }),
        this.#owner,
      );
    }
  }

  /** `fn` as an entry point of this client's (util/guard.ts), or as it is without an owner. */
  #entry<A extends unknown[]>(where: string, fn: (...args: A) => void): (...args: A) => void {
    return this.#owner ? guarded(this.#owner, where, fn) : fn;
  }
}

type PaneSize = { readonly cols: number; readonly rows: number };

/** The inside of session `id`'s tile, when it is tiled. */
function focusedRectOf(s: TuiState, id: string): Rect | null {
  return tiles(s).find((t) => t.id === id)?.inner ?? null;
}

/** Rows [from, to) of the pane as frame rows, clipped to it. */
function paneRows(pane: Rect, rows: readonly [number, number]): [number, number] {
  const from = Math.max(0, Math.min(pane.height, rows[0]));
  return [pane.y + from, pane.y + Math.max(from, Math.min(pane.height, rows[1]))];
}
