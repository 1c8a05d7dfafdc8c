/**
 * The lazyshell runtime, the headless engine: everything but the screen.
 * `lazyshell serve` runs it alone; the TUI runs it and draws it.
 *
 * Owns: config, the session store and the services wired to it (detection,
 * hook and control sockets, notifications, watchers), and the one
 * RuntimeState every consumer reads (src/model/runtime.ts): the engine's
 * events go through one reducer (state.ts) and come out as one ordered
 * change stream (`subscribe`). Consumers read that state and its changes,
 * never the detection hub's or the store's own events. Services are added
 * here additively; each is disposed with the runtime, in reverse order.
 * Must not import the TUI.
 */

import type { LoadedConfig } from "../config/config.ts";
import { loadConfig } from "../config/load.ts";
import type { Env } from "../config/paths.ts";
import { EMPTY_STATE, type RuntimeChange, type RuntimeState } from "../model/runtime.ts";
import type { ConversationRef, SessionView } from "../model/session.ts";
import { type SessionSpec, SessionStore, type StoreEvent } from "../session/store.ts";
import type { Session } from "../session/session.ts";
import { type Notifications, startNotifications } from "./notifications.ts";
import { type Catalog, loadCatalogSync } from "./catalog.ts";
import { DetectionHub } from "./detection.ts";
import { type EngineEvent, reduceRuntime } from "./state.ts";

export interface RuntimeOptions {
  readonly env?: Env;
  /** Already-loaded config (tests); default: read config.yml. */
  readonly config?: LoadedConfig;
  /** Session size before a screen tells us better. */
  readonly cols?: number;
  readonly rows?: number;
  /** Working directory for new sessions (default: the current one). */
  readonly cwd?: string;
}

/** The client of a TUI that runs in the runtime's own process (tests, benchmarks). */
export const LOCAL_CLIENT = "local";

export interface Focus {
  /** The session the user is looking at, if any. */
  readonly selected: string | null;
  /** True while keys go to that session's PTY (terminal mode). */
  readonly terminal: boolean;
}

const NO_FOCUS: Focus = { selected: null, terminal: false };

/** Output this soon after a resize is the program redrawing for the new size, not news. */
const RESIZE_REDRAW_MS = 500;

export class Runtime implements AsyncDisposable {
  readonly env: Env;
  readonly loaded: LoadedConfig;
  readonly store: SessionStore;
  /** N1–N2: the notifier and what feeds it; the TUI/serve set its sink. */
  readonly notifications: Notifications;
  /** Agent manifests (built-in + user); `catalog.errors` lists broken files (D3). */
  readonly catalog: Catalog;
  /** Agent identity and state per session (src/runtime/detection.ts). */
  readonly detection: DetectionHub;
  #state: RuntimeState = EMPTY_STATE;
  #changes = new Set<(change: RuntimeChange) => void>();
  #outputs = new Set<(id: string) => void>();
  #focusListeners = new Set<(focus: Focus) => void>();
  #disposers: (() => void | Promise<void>)[] = [];
  /** What each attached client looks at, the most recent last. */
  #focuses = new Map<string, Focus>();
  /** When each session was last resized: what a shell redraws for it is not new output (●). */
  #resizedAt = new Map<string, number>();
  /** Which client a session's PTY size follows (tmux's "latest": who last typed into or focused it). */
  #sizeOwners = new Map<string, string>();

  constructor(options: RuntimeOptions = {}) {
    this.env = options.env ?? Deno.env.toObject();
    this.loaded = options.config ?? loadConfig(this.env);
    const config = this.loaded.config;
    const env = Object.entries(this.env).filter((e): e is [string, string] => e[1] !== undefined);
    this.store = new SessionStore({
      // Sessions get this runtime's environment (and its SHELL), not the process's.
      env: Object.fromEntries(env),
      ...(config.shell ? { shell: config.shell } : {}),
      ...(options.cwd ? { cwd: options.cwd } : {}),
      cols: options.cols ?? config.default_size.cols,
      rows: options.rows ?? config.default_size.rows,
      scrollback: config.scrollback,
    });
    const sub = this.store.on((event) => this.#onStore(event));
    this.own(() => sub[Symbol.dispose]());
    this.catalog = loadCatalogSync({ env: this.env });
    this.#dispatch({ type: "problems", problems: this.catalog.errors.map((e) => e.message) });
    // Detection emits the reducer's own events: straight into it.
    this.detection = new DetectionHub(this.store, this.catalog, (e) => this.#dispatch(e));
    this.own(() => this.detection[Symbol.dispose]());
    this.notifications = startNotifications(this);
    const stats = this.notifications.stats.on((id, line) =>
      this.#dispatch({ type: "stats", id, line: line.text })
    );
    const watchers = this.notifications.watchers.on((e) => {
      if (e.type === "armed") {
        this.#dispatch({ type: "watcher", id: e.sessionId, pattern: e.pattern });
      }
    });
    this.own(() => {
      stats[Symbol.dispose]();
      watchers[Symbol.dispose]();
    });
  }

  get config(): LoadedConfig["config"] {
    return this.loaded.config;
  }

  /** The runtime's state: every session as plain data (src/model/runtime.ts). */
  get state(): RuntimeState {
    return this.#state;
  }

  /** One session's view, or undefined. */
  view(id: string): SessionView | undefined {
    return this.#state.sessions.find((s) => s.id === id);
  }

  /** Every change of the state from now on, in order (listeners must not throw). */
  subscribe(listener: (change: RuntimeChange) => void): Disposable {
    this.#changes.add(listener);
    return { [Symbol.dispose]: () => this.#changes.delete(listener) };
  }

  /**
   * A session's screen changed (output applied, resized, buffer switched):
   * a pane showing it redraws. Not state: screens are read, not sent.
   */
  onOutput(listener: (id: string) => void): Disposable {
    this.#outputs.add(listener);
    return { [Symbol.dispose]: () => this.#outputs.delete(listener) };
  }

  /** What the most recently active client looks at (the stats command and plugins follow it). */
  get focus(): Focus {
    return [...this.#focuses.values()].at(-1) ?? NO_FOCUS;
  }

  /** What every attached client looks at (no notification for a session one types into, N1). */
  get focuses(): readonly Focus[] {
    return [...this.#focuses.values()];
  }

  /** A client says what its user is looking at. */
  setFocus(focus: Focus, client = LOCAL_CLIENT): void {
    this.#focuses.delete(client);
    this.#focuses.set(client, focus);
    for (const listener of this.#focusListeners) listener(this.focus);
  }

  /** A client left: it looks at nothing, and the sessions it sized are free again. */
  forgetClient(client: string): void {
    this.#focuses.delete(client);
    for (const [id, owner] of this.#sizeOwners) if (owner === client) this.#sizeOwners.delete(id);
    for (const listener of this.#focusListeners) listener(this.focus);
  }

  /**
   * The session's PTY takes this client's pane size from now on (the client
   * typed into it or focused it): tmux's "latest" rule.
   */
  claimSize(id: string, client: string, cols: number, rows: number): void {
    this.#sizeOwners.set(id, client);
    this.store.get(id)?.resize(cols, rows);
  }

  /**
   * A client's pane changed size: the sessions that follow it (or nobody
   * yet) follow, but those in `except` (sized on their own: its tiles).
   */
  resizeFor(client: string, cols: number, rows: number, except?: ReadonlySet<string>): void {
    for (const session of this.store.list()) {
      if (except?.has(session.id)) continue;
      const owner = this.#sizeOwners.get(session.id);
      if (owner === undefined || owner === client) session.resize(cols, rows);
    }
  }

  onFocus(listener: (focus: Focus) => void): Disposable {
    this.#focusListeners.add(listener);
    return { [Symbol.dispose]: () => this.#focusListeners.delete(listener) };
  }

  /** A hook payload named the agent's conversation id (src/ipc/conversation.ts). */
  noteConversation(id: string, conversation: Omit<ConversationRef, "agent">): void {
    this.#dispatch({ type: "conversation", id, conversation });
  }

  createSession(spec: SessionSpec = {}): Session {
    return this.store.create(spec);
  }

  /**
   * The set-up problems to show (state.problems): the server's full list
   * (src/server/problems.ts); until then the catalog's broken manifests.
   */
  setProblems(problems: readonly string[]): void {
    this.#dispatch({ type: "problems", problems });
  }

  /** Registers a service's cleanup; run in reverse order on dispose. */
  own(dispose: () => void | Promise<void>): void {
    this.#disposers.push(dispose);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    for (const dispose of this.#disposers.reverse()) {
      try {
        await dispose();
      } catch { /* keep disposing the rest */ }
    }
    this.#disposers = [];
    await this.store[Symbol.asyncDispose]();
    this.#changes.clear();
    this.#outputs.clear();
    this.#focusListeners.clear();
  }

  #onStore(e: StoreEvent): void {
    switch (e.type) {
      case "added":
        return this.#dispatch({ type: "session-added", session: this.store.facts(e.session) });
      case "changed":
        return this.#dispatch({
          type: "session-changed",
          id: e.session.id,
          name: e.session.name,
          group: e.session.group,
        });
      case "replaced":
        return this.#dispatch({ type: "session-replaced", session: this.store.facts(e.session) });
      case "removed":
        this.#sizeOwners.delete(e.id);
        this.#resizedAt.delete(e.id);
        return this.#dispatch({ type: "session-removed", id: e.id });
      case "session": {
        const id = e.session.id;
        const ev = e.event;
        if (ev.type === "output") {
          this.#output(id);
          const at = Date.now();
          // A first output always counts: the session has printed something (its prompt).
          const first = (this.view(id)?.outputAt ?? 0) === 0;
          if (first || at - (this.#resizedAt.get(id) ?? -Infinity) > RESIZE_REDRAW_MS) {
            this.#dispatch({ type: "output", id, at });
          }
        } else if (ev.type === "resize") {
          this.#resizedAt.set(id, Date.now());
          this.#output(id);
          this.#dispatch({ type: "session-resized", id, cols: ev.cols, rows: ev.rows });
        } else if (ev.type === "alt-screen") {
          this.#output(id);
        } else if (ev.type === "exit") {
          this.#dispatch({
            type: "session-exited",
            id,
            exitCode: ev.exitCode,
            signal: ev.signal,
            at: Date.now(),
          });
        }
      }
    }
  }

  #output(id: string): void {
    for (const listener of this.#outputs) listener(id);
  }

  #dispatch(event: EngineEvent): void {
    const { state, change } = reduceRuntime(this.#state, event);
    this.#state = state;
    if (!change) return;
    for (const listener of this.#changes) {
      try {
        listener(change);
      } catch (error) {
        console.error("lazyshell: a runtime subscriber failed:", error);
      }
    }
  }
}
