/**
 * The coalesced renderer of one client (docs/tui.md): what changes the
 * state invalidates; at most one frame per tick (~16 ms) is built and
 * diffed against the last one written, and nothing is written when nothing
 * changed. The first change of the focused session's screen right after a
 * keystroke (its echo) is drawn at once, and a typed key's echo may be
 * written before the session's emulator parses it (`writeAhead`).
 *
 * Owns: the last frames, the screens read for them (screens.ts), the frame
 * and mid-update timers. Draws what `state()` says; src/tui/app.ts owns
 * the state and tells the renderer when it changed.
 */

import type { Frame } from "./core/frame.ts";
import { echoPane, recordEchoAhead } from "./core/echo_ahead.ts";
import { diff } from "./core/diff.ts";
import type { Keymap } from "./core/keymap.ts";
import { layout, type Rect } from "./core/layout.ts";
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
import type { TuiState } from "../model/tui.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { Screens } from "./screens.ts";
import { isTiled } from "./core/view/tiles.ts";
import { tiles } from "./core/view/tiles_layout.ts";
import { sameDrawing } from "./core/update.ts";
import { ticker } from "../util/ticker.ts";
import { MID_UPDATE_MAX_MS } from "../session/terminal.ts";
import { guarded, type Owner } from "../util/guard.ts";
import { faults } from "../util/fault_injection.ts";

export const FRAME_MS = 16;
/** Output this soon after a keystroke in terminal mode is the echo: drawn at once. */
export const ECHO_WINDOW_MS = 150;

export interface RendererOptions {
  readonly runtime: Runtime;
  /** Writes to the host terminal (the one stdout writer). */
  readonly write: (text: string) => void;
  /** Called once a typed key's echo is written (TuiAppOptions.afterEcho). */
  readonly afterEcho: (() => void) | undefined;
  readonly now: () => number;
  /** This client's id (fault injection names it). */
  readonly client: string;
  /** Whose failures its timers are (util/guard.ts); none: they throw (tests). */
  readonly owner: Owner | undefined;
  /** The client's output is behind: frames are skipped (TuiAppOptions.backlog). */
  readonly backlog: {
    readonly behind: () => boolean;
    readonly drained: () => Promise<void>;
  } | undefined;
  /** What to draw: the state now, the keys it names, the plugin tabs. */
  readonly state: () => TuiState;
  readonly keymap: () => Keymap;
  readonly tabs: () => readonly Tab[];
}

export class Renderer implements Disposable {
  /** Frames written (benchmarks read it). */
  frames = 0;
  /** Frames not drawn because the client's output was behind (options.backlog). */
  skipped = 0;
  /** The terminal reported synchronized updates (mode 2026) as supported. */
  sync = false;
  readonly #runtime: Runtime;
  readonly #write: (text: string) => void;
  readonly #afterEcho: (() => void) | undefined;
  readonly #now: () => number;
  readonly #client: string;
  readonly #owner: Owner | undefined;
  readonly #state: () => TuiState;
  readonly #keymap: () => Keymap;
  readonly #tabs: () => readonly Tab[];
  #prev: Frame | null = null;
  /** The frame before #prev and the last screen read: reused, not reallocated, each frame. */
  #spare: Frame | null = null;
  /** Frame rows where #spare may differ from #prev, [from, to); null: any. */
  #spareBehind: readonly [number, number] | null = null;
  /** The window of the selected session's screen the last frame showed (not tiled). */
  #window: PaneWindow | null = null;
  /** Reads the shown sessions' screens (only the rows redrawn since their last read). */
  #screens: Screens;
  /** The state the last frame was drawn from. */
  #drawn: TuiState | null = null;
  #frameTimer: ReturnType<typeof setTimeout> | undefined;
  /** Draws a session's half-drawn frame after all if its synchronized update never ends. */
  #midUpdate: ReturnType<typeof setTimeout> | undefined;
  #lastFrame = 0;
  /** When the user last typed into a session (terminal mode), for the echo fast path. */
  #typedAt = -Infinity;
  #echoFrame = false;
  /** A frame is due in this wake-up (at the end of the grid point, or in a microtask). */
  #immediate = false;
  #disposed = false;
  /** The frame timer's and the frame due in this wake-up's callbacks (entry points). */
  readonly #drawTimer: () => void;
  readonly #drawDue: () => void;
  readonly #backlog: RendererOptions["backlog"];
  /** A frame was skipped: one is drawn once the client's output drains. */
  #owed = false;
  readonly #drainedDraw: () => void;

  constructor(options: RendererOptions) {
    this.#runtime = options.runtime;
    this.#write = options.write;
    this.#afterEcho = options.afterEcho;
    this.#now = options.now;
    this.#client = options.client;
    this.#owner = options.owner;
    this.#state = options.state;
    this.#keymap = options.keymap;
    this.#tabs = options.tabs;
    this.#screens = new Screens((id) => options.runtime.sessions.get(id));
    this.#drawTimer = this.#entry("draw", () => void this.render());
    this.#drawDue = this.#entry("draw", () => {
      if (this.#immediate) this.render();
    });
    this.#backlog = options.backlog;
    this.#drainedDraw = this.#entry("draw", () => {
      this.#owed = false;
      this.invalidate();
    });
  }

  /** The last frame drawn: what this client's terminal shows. */
  get frame(): Frame | null {
    return this.#prev;
  }

  /** The user typed into the selected session (terminal mode): its echo may be drawn at once. */
  typed(): void {
    this.#typedAt = this.#now();
    this.#echoFrame = false;
  }

  /** Where session `id`'s pane here starts in its screen, as last drawn (pane_window.ts). */
  windowOf(id: string): { top: number; left: number } {
    const s = this.#state();
    const grid = this.#screens.last(id);
    const rect = isTiled(s) ? focusedRectOf(s, id) : layout(s.cols, s.rows).pane;
    if (!grid || !rect) return { top: 0, left: 0 };
    return paneWindow(grid, rect.width, rect.height, windowAtBottom(s, id));
  }

  /** Forgets the last frame and draws everything again (after an interactive plugin exec). */
  redraw(): void {
    this.#prev = null;
    this.invalidate();
  }

  /** Draws the next frame whole from the state, not only the pane (the keys it names changed). */
  restyle(): void {
    this.#drawn = null;
    this.invalidate();
  }

  /**
   * Starts drawing over from nothing after a failure (util/guard.ts): no
   * frame or screen read of before is trusted.
   */
  reset(): void {
    clearTimeout(this.#frameTimer);
    clearTimeout(this.#midUpdate);
    this.#frameTimer = this.#midUpdate = undefined;
    this.#immediate = this.#echoFrame = false;
    this.#screens[Symbol.dispose]();
    this.#screens = new Screens((id) => this.#runtime.sessions.get(id));
    this.#prev = this.#spare = null;
    this.#spareBehind = null;
    this.#window = null;
    this.#drawn = null;
    this.invalidate();
  }

  /** Draws now if something is pending (tests and benchmarks). */
  flush(): void {
    if (this.#frameTimer !== undefined || this.#immediate) {
      clearTimeout(this.#frameTimer);
      this.render();
    }
  }

  [Symbol.dispose](): void {
    if (this.#disposed) return;
    this.#disposed = true;
    clearTimeout(this.#frameTimer);
    clearTimeout(this.#midUpdate);
    this.#screens[Symbol.dispose]();
  }

  /**
   * A typed key's echo, written to the terminal before the session's
   * emulator parses it (docs/tui.md, "The echo"), when the last frame is
   * still what the terminal shows of this state (no frame due since) and
   * recordEchoAhead places it there. `id`: the session the keys were typed into.
   */
  writeAhead(id: string | null, text: string, at: Cursor): void {
    const prev = this.#prev;
    const s = this.#state();
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
  }

  /** The screen of session `id` changed: its pane is redrawn when this client shows it. */
  output(id: string): void {
    if (faults) faults.hit("listener", this.#client);
    const s = this.#state();
    if (s.tab !== 0) return;
    const shown = s.selected === id || (isTiled(s) && tiles(s).some((t) => t.id === id));
    if (!shown) return;
    // A frame half drawn inside a synchronized update waits for the update's end (more output),
    // as a terminal holds it back; at most MID_UPDATE_MAX_MS (docs/detection.md, Scheduling).
    if (this.#runtime.sessions.get(id)?.midUpdate) {
      this.#midUpdate ??= setTimeout(
        this.#entry("draw", () => {
          this.#midUpdate = undefined;
          this.invalidate();
        }),
        MID_UPDATE_MAX_MS,
      );
      return;
    }
    this.invalidate(s.selected === id && s.mode === "terminal");
  }

  /**
   * Schedules one frame, at most one per FRAME_MS. Exception: the first
   * change of the focused session's screen right after a keystroke (its
   * echo) is drawn at once, as tmux does; a flood still waits its tick.
   */
  invalidate(echo = false): void {
    if (this.#disposed) return;
    const now = this.#now();
    if (echo && !this.#echoFrame && now - this.#typedAt < ECHO_WINDOW_MS) {
      this.#echoFrame = true;
      clearTimeout(this.#frameTimer);
      this.#frameTimer = undefined;
      if (this.render()) this.#afterEcho?.();
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
  render(): boolean {
    clearTimeout(this.#frameTimer);
    this.#frameTimer = undefined;
    this.#immediate = false;
    if (this.#disposed) return false;
    // Frames coalesce while the client has not taken the last one: skipped, never half sent,
    // so #prev stays what the client will show and the next diff is against it. The first frame
    // has no last one to wait for: what a new client's link holds then is its Welcome, and
    // skipping put the first frame a FRAME_MS tick after the drain (~20 ms, relaying clients).
    const backlog = this.#backlog;
    if (this.frames > 0 && backlog?.behind()) {
      this.skipped++;
      this.#lastFrame = this.#now(); // the next try waits its tick too
      if (!this.#owed) {
        this.#owed = true;
        void backlog.drained().then(this.#drainedDraw);
      }
      return false;
    }
    this.#lastFrame = this.#now();
    const s = this.#state();
    const keymap = this.#keymap();
    const { screen, rows, tiles: screens } = this.#screens.forFrame(s);
    if (faults) faults.hit("draw", this.#client);
    let tabLines = null;
    if (s.tab > 0) {
      const body = layout(s.cols, s.rows).body;
      tabLines = this.#tabs()[s.tab - 1]?.render(body.width, body.height) ?? null;
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
        keymap,
        screens,
        this.#spareBehind,
      )
      : null;
    const frame = paneOnly ??
      view(
        s,
        { keymap, screen, tabLines, ...(screens ? { screens } : {}) },
        this.#spare,
      );
    this.#drawn = s;
    const changed = paneOnly && dirty && window ? paneRows(pane, windowRows(window, dirty)) : null;
    const out = diff(this.#prev, frame, {
      sync: this.sync,
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

  /** `fn` as an entry point of this client's (util/guard.ts), or as it is without an owner. */
  #entry<A extends unknown[]>(where: string, fn: (...args: A) => void): (...args: A) => void {
    return this.#owner ? guarded(this.#owner, where, fn) : fn;
  }
}

/** The inside of session `id`'s tile, when it is tiled. */
function focusedRectOf(s: TuiState, id: string): Rect | null {
  return tiles(s).find((t) => t.id === id)?.inner ?? null;
}

/** Rows [from, to) of the pane as frame rows, clipped to it. */
function paneRows(pane: Rect, rows: readonly [number, number]): [number, number] {
  const from = Math.max(0, Math.min(pane.height, rows[0]));
  return [pane.y + from, pane.y + Math.max(from, Math.min(pane.height, rows[1]))];
}
