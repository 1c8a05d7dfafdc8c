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
 * The config and the catalog change through one path, `reconfigure()`
 * (`lazyshell reload`, SIGHUP: docs/architecture.md, "Reload"): each
 * service that keeps a copy of a setting follows `onReconfigure`.
 * Must not import the TUI.
 */

import type { LoadedConfig } from "../config/config.ts";
import { messageOf } from "../errors.ts";
import { loadConfig } from "../config/load.ts";
import type { Env } from "../config/paths.ts";
import { EMPTY_STATE, type RuntimeChange, type RuntimeState } from "../model/runtime.ts";
import type { ConversationRef, SessionView } from "../model/session.ts";
import {
  type SessionSpec,
  SessionStore,
  type StoreDefaults,
  type StoreEvent,
} from "../session/store.ts";
import type { Session } from "../session/session.ts";
import { type Notifications, startNotifications } from "./notifications.ts";
import { type Catalog, loadCatalogSync } from "./catalog.ts";
import { DetectionHub } from "./detection.ts";
import { type EngineEvent, reduceRuntime } from "./state.ts";
import { fault, type Owner } from "../util/guard.ts";

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

/** A listener's owner unless its subscriber names one: a failure is logged, the listener kept. */
const LISTENER: Owner = { name: "runtime listener" };

/** A listener and whose it is: a failure in it goes to its owner (util/guard.ts). */
interface Listener<A> {
  readonly call: (arg: A) => void;
  readonly owner: Owner;
}

/** Output this soon after a resize is the program redrawing for the new size, not news. */
const RESIZE_REDRAW_MS = 500;

/** What `reconfigure()` replaces: config.yml as loaded and the agent catalog. */
export interface Setup {
  readonly loaded: LoadedConfig;
  /** Agent manifests (built-in + user); `catalog.errors` lists broken files (D3). */
  readonly catalog: Catalog;
}

export class Runtime implements AsyncDisposable {
  readonly env: Env;
  readonly store: SessionStore;
  /** N1–N2: the notifier and what feeds it; the TUI/serve set its sink. */
  readonly notifications: Notifications;
  /** Agent identity and state per session (src/runtime/detection.ts). */
  readonly detection: DetectionHub;
  #setup: Setup;
  /** The session size RuntimeOptions gave, which outranks config `default_size`. */
  readonly #size: { cols?: number | undefined; rows?: number | undefined };
  #reconfigured = new Set<(next: Setup, previous: Setup) => void | Promise<void>>();
  #state: RuntimeState = EMPTY_STATE;
  #changes = new Set<Listener<RuntimeChange>>();
  #outputs = new Set<Listener<string>>();
  #focusListeners = new Set<Listener<Focus>>();
  #disposers: (() => void | Promise<void>)[] = [];
  /** What each attached client looks at, the most recent last. */
  #focuses = new Map<string, Focus>();
  /** When each session was last resized: what a shell redraws for it is not new output (●). */
  #resizedAt = new Map<string, number>();
  /** Which client a session's PTY size follows (tmux's "latest": who last typed into or focused it). */
  #sizeOwners = new Map<string, string>();

  constructor(options: RuntimeOptions = {}) {
    this.env = options.env ?? Deno.env.toObject();
    this.#setup = {
      loaded: options.config ?? loadConfig(this.env),
      catalog: loadCatalogSync({ env: this.env }),
    };
    this.#size = { cols: options.cols, rows: options.rows };
    const env = Object.entries(this.env).filter((e): e is [string, string] => e[1] !== undefined);
    this.store = new SessionStore({
      // Sessions get this runtime's environment (and its SHELL), not the process's.
      env: Object.fromEntries(env),
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
    this.store.configure(this.#storeDefaults());
    const sub = this.store.on((event) => this.#onStore(event));
    this.own(() => sub[Symbol.dispose]());
    this.#dispatch({ type: "problems", problems: this.catalog.errors.map((e) => e.message) });
    this.detection = new DetectionHub(this.store, this.catalog);
    this.own(() => this.detection[Symbol.dispose]());
    const hub = this.detection.on((e) => {
      if (e.type === "state") {
        this.#dispatch({ type: "state", id: e.id, status: e.status, at: Date.now() });
      } else if (e.type === "agent") {
        const hasRules = e.agent !== null && this.detection.hasRules(e.agent);
        this.#dispatch({ type: "agent", id: e.id, agent: e.agent, hasRules });
      } else if (e.type === "prompt") {
        this.#dispatch({ type: "prompt", id: e.id, prompt: e.prompt });
      } else this.#dispatch({ type: "capable", id: e.id });
    });
    this.own(() => hub[Symbol.dispose]());
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

  /** config.yml as loaded (the running one: `reconfigure()` replaces it). */
  get loaded(): LoadedConfig {
    return this.#setup.loaded;
  }

  get config(): LoadedConfig["config"] {
    return this.#setup.loaded.config;
  }

  /** Agent manifests (built-in + user); `catalog.errors` lists broken files (D3). */
  get catalog(): Catalog {
    return this.#setup.catalog;
  }

  /**
   * The one path by which the running config and catalog change (already
   * read and validated: src/server/reload.ts). What reads a setting at use
   * time sees the new one at once; the store's defaults (shell, scrollback,
   * size: for new sessions), the detection hub (the running sessions too)
   * and every `onReconfigure` listener follow here, in that order (each
   * awaited; one that fails is reported, one line each, and the rest still
   * run). Sessions, screens and clients are untouched.
   */
  async reconfigure(next: Setup): Promise<string[]> {
    const previous = this.#setup;
    this.#setup = next;
    this.store.configure(this.#storeDefaults());
    if (next.catalog !== previous.catalog) this.detection.setCatalog(next.catalog);
    if (next.loaded.config.agent_stats_command !== previous.loaded.config.agent_stats_command) {
      // The old command's lines go; the new one's come as it runs (notifications.ts).
      for (const s of this.#state.sessions) {
        if (s.stats !== null) this.#dispatch({ type: "stats", id: s.id, line: null });
      }
    }
    const failed: string[] = [];
    for (const listener of [...this.#reconfigured]) {
      try {
        await listener(next, previous);
      } catch (error) {
        failed.push(messageOf(error));
      }
    }
    return failed;
  }

  /** Called after each `reconfigure()` with the new setup and the one it replaced. */
  onReconfigure(listener: (next: Setup, previous: Setup) => void | Promise<void>): Disposable {
    this.#reconfigured.add(listener);
    return { [Symbol.dispose]: () => this.#reconfigured.delete(listener) };
  }

  /** The runtime's state: every session as plain data (src/model/runtime.ts). */
  get state(): RuntimeState {
    return this.#state;
  }

  /** One session's view, or undefined. */
  view(id: string): SessionView | undefined {
    return this.#state.sessions.find((s) => s.id === id);
  }

  /**
   * Every change of the state from now on, in order. A listener that throws
   * is its `owner`'s failure: the other listeners still hear the change.
   */
  subscribe(listener: (change: RuntimeChange) => void, owner = LISTENER): Disposable {
    return listen(this.#changes, { call: listener, owner });
  }

  /**
   * A session's screen changed (output applied, resized, buffer switched):
   * a pane showing it redraws. Not state: screens are read, not sent.
   */
  onOutput(listener: (id: string) => void, owner = LISTENER): Disposable {
    return listen(this.#outputs, { call: listener, owner });
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
    notify(this.#focusListeners, this.focus, "focus listener");
  }

  /** A client left: it looks at nothing, and the sessions it sized are free again. */
  forgetClient(client: string): void {
    this.#focuses.delete(client);
    for (const [id, owner] of this.#sizeOwners) if (owner === client) this.#sizeOwners.delete(id);
    notify(this.#focusListeners, this.focus, "focus listener");
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

  onFocus(listener: (focus: Focus) => void, owner = LISTENER): Disposable {
    return listen(this.#focusListeners, { call: listener, owner });
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
    this.#reconfigured.clear();
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

  /** What new sessions take from the config (RuntimeOptions' size outranks `default_size`). */
  #storeDefaults(): StoreDefaults {
    const config = this.config;
    return {
      shell: config.shell,
      cols: this.#size.cols ?? config.default_size.cols,
      rows: this.#size.rows ?? config.default_size.rows,
      scrollback: config.scrollback,
    };
  }

  #output(id: string): void {
    notify(this.#outputs, id, "output listener");
  }

  #dispatch(event: EngineEvent): void {
    const { state, change } = reduceRuntime(this.#state, event);
    this.#state = state;
    if (!change) return;
    notify(this.#changes, change, "state listener");
  }
}

function listen<A>(set: Set<Listener<A>>, listener: Listener<A>): Disposable {
  set.add(listener);
  return { [Symbol.dispose]: () => set.delete(listener) };
}

/** Calls each listener; one that throws is its owner's failure, never the session's. */
function notify<A>(set: ReadonlySet<Listener<A>>, arg: A, where: string): void {
  for (const listener of set) {
    try {
      listener.call(arg);
    } catch (error) {
      fault(listener.owner, where, error);
    }
  }
}
