/**
 * The TUI loop (docs/tui.md): one reducer, effects as data, a coalesced
 * renderer (renderer.ts). Anything that changes the state invalidates; at
 * most one frame per tick (~16 ms) is built and diffed, and nothing is
 * written when nothing changed. One animation clock (~100 ms) drives every
 * spinner and runs only while something spins (1 s under reduce_motion,
 * for the turn durations).
 *
 * Owns: the TuiState, the key decoder, the clock/Esc/message timers, the
 * subscriptions to the runtime, the renderer. Does not own the host
 * terminal or the runtime (main.ts does) so it can be driven in tests.
 *
 * Given an `owner` (the server's client), each of its timers and listeners
 * is an entry point of that client (util/guard.ts): what throws there is
 * the client's failure, reset (`reset()`) or dropped by the server, never
 * its caller's.
 */

import type { Config } from "../config/config.ts";
import type { Frame } from "./core/frame.ts";
import { KeyDecoder } from "./core/keys.ts";
import { type Keymap, resolveKeymap } from "./core/keymap.ts";
import { problemsMessage } from "./core/problems_message.ts";
import { layout, sessionSize } from "./core/layout.ts";
import { clockMs } from "./core/clock.ts";
import type { Tab } from "./core/tab.ts";
import type { Cursor } from "../model/snapshot.ts";
import { initialTuiState, type TuiState } from "../model/tui.ts";
import { LOCAL_CLIENT, type Runtime } from "../runtime/runtime.ts";
import { tileSizes } from "./core/view/tiles_layout.ts";
import { type EffectContext, runEffect } from "./effects.ts";
import type { TuiEvent } from "./core/events.ts";
import { update } from "./core/update.ts";
import { ticker } from "../util/ticker.ts";
import { osc52 } from "./clipboard.ts";
import type { SessionRestore } from "../restore/restore.ts";
import { offerEvent } from "./restore_effects.ts";
import { guarded, type Owner } from "../util/guard.ts";
import { faults } from "../util/fault_injection.ts";
import type { HostSource } from "../model/hosts.ts";
import { Renderer } from "./renderer.ts";

export { ECHO_WINDOW_MS, FRAME_MS } from "./renderer.ts";
export const SPIN_MS = 100;
export const ESC_TIMEOUT_MS = 25;
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
  /** Config `keys:` applied to the key table; a reload replaces it (reconfigure()). */
  keymap: Keymap;
  readonly #runtime: Runtime;
  readonly #write: (text: string) => void;
  readonly #now: () => number;
  #decoder = new KeyDecoder();
  readonly #subs: Disposable[] = [];
  #tabs: readonly Tab[];
  #tabSubs: Disposable[] = [];
  #started = false;
  /** What #reportShown() last told the runtime. */
  #shownKey = "";
  /** The last pane size #paneSize() worked out, and for which state and session. */
  #sized: { state: TuiState; id: string | undefined; size: PaneSize } | null = null;
  /** Schedules, draws and writes this client's frames. */
  readonly #renderer: Renderer;
  #escTimer: ReturnType<typeof setTimeout> | undefined;
  #clock: Disposable | undefined;
  #clockMs = 0;
  #messageTimer: ReturnType<typeof setTimeout> | undefined;
  /** The session whose echo #writeAhead may draw (the one the last keys were typed into). */
  #aheadOf: string | null = null;
  #done = Promise.withResolvers<number>();
  readonly #effects: EffectContext;
  readonly #resume: ViewPlace | null;
  #disposed = false;
  readonly #owner: Owner | undefined;
  readonly #hosts: HostSource | null;

  constructor(options: TuiAppOptions) {
    this.#runtime = options.runtime;
    this.#write = options.write;
    this.#now = options.now ?? Date.now;
    this.#tabs = options.tabs ?? [];
    this.#resume = options.resume ?? null;
    this.#owner = options.owner;
    this.#renderer = new Renderer({
      runtime: options.runtime,
      write: options.write,
      afterEcho: options.afterEcho,
      now: this.#now,
      client: options.client ?? LOCAL_CLIENT,
      owner: options.owner,
      backlog: options.backlog,
      state: () => this.state,
      keymap: () => this.keymap,
      tabs: () => this.#tabs,
    });
    this.#effects = {
      runtime: options.runtime,
      client: options.client ?? LOCAL_CLIENT,
      cwd: options.cwd ?? null,
      detach: () => (options.detach ?? (() => this.quit(0)))(),
      tabs: () => this.#tabs,
      dispatch: (e) => this.dispatch(e),
      paneSize: (id) => this.#paneSize(id),
      windowOf: (id) => this.#renderer.windowOf(id),
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

  /** Frames written (benchmarks read it). */
  get frames(): number {
    return this.#renderer.frames;
  }

  /** Frames not drawn because the client's output was behind (options.backlog). */
  get skipped(): number {
    return this.#renderer.skipped;
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
    this.#subs.push(runtime.onOutput((id) => this.#renderer.output(id), this.#owner));
    this.#watchTabs();
    this.#syncRows();
    if (this.#resume) this.dispatch({ type: "resume", ...this.#resume });
    this.#reportShown();
    const restore = this.#effects.restore;
    const problem = restore?.unsaidProblem() ?? null;
    if (restore && (restore.pendingCount > 0 || problem)) {
      this.dispatch(offerEvent(restore, problem));
    }
    this.#renderer.render();
  }

  /** The last frame drawn: what this client's terminal shows (tests compare it). */
  get frame(): Frame | null {
    return this.#renderer.frame;
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
        if (this.state.tab > 0) this.#renderer.invalidate();
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
      this.#renderer.invalidate();
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
    if (typedInto) this.#renderer.typed();
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
    this.#renderer.restyle();
  }

  /** Forgets the last frame and draws everything again (after an interactive plugin exec). */
  redraw(): void {
    this.#renderer.redraw();
  }

  /**
   * Starts drawing over from nothing after a failure (util/guard.ts): no
   * frame, screen read or half-typed key sequence of before is trusted.
   */
  reset(): void {
    if (this.#disposed) return;
    clearTimeout(this.#escTimer);
    this.#decoder = new KeyDecoder();
    this.#sized = null;
    this.#renderer.reset();
  }

  quit(code: number): void {
    this.#done.resolve(code);
  }

  /** Draws now if something is pending (tests and benchmarks). */
  flush(): void {
    this.#renderer.flush();
  }

  [Symbol.dispose](): void {
    if (this.#disposed) return;
    this.#disposed = true;
    clearTimeout(this.#escTimer);
    clearTimeout(this.#messageTimer);
    this.#clock?.[Symbol.dispose]();
    this.#renderer[Symbol.dispose]();
    for (const s of this.#subs) s[Symbol.dispose]();
    for (const s of this.#tabSubs) s[Symbol.dispose]();
  }

  #handle(events: ReturnType<KeyDecoder["feed"]>): void {
    for (const input of events) {
      if (input.type === "mode-report") {
        if (input.mode === 2026) this.#renderer.sync = input.value === 1 || input.value === 2;
        continue;
      }
      this.dispatch({ type: "input", input });
    }
  }

  /** A typed key's echo, written ahead of its parse (renderer.ts `writeAhead`). */
  readonly #writeAhead = (text: string, at: Cursor): void => {
    this.#renderer.writeAhead(this.#aheadOf, text, at);
  };

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
