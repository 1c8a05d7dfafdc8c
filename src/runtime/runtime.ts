/**
 * The lazyshell runtime, the headless engine: everything but the screen.
 * `lazyshell serve` runs it alone; the server runs it and draws it for each client.
 *
 * Owns: config, the session store and the services wired to it (detection,
 * hook and control sockets, notifications, watchers), and the one
 * RuntimeState every consumer reads (src/model/runtime.ts): the engine's
 * events go through one reducer (state.ts) and come out as one ordered
 * change stream (`subscribe`). Consumers — a client's TUI, the plugin feed,
 * the control verbs, the notifications, the state file — read that state
 * and its changes, act on sessions through `sessions` (their handles: a
 * screen, a PTY) and the runtime's own verbs, and never reach the services
 * (docs/architecture.md, One runtime state). Services are added here
 * additively; each is disposed with the runtime, in reverse order. Time is
 * injected (`now`, `scheduler`; tests pass a virtual clock's). The config
 * and the catalog change through one path, `reconfigure()` (`lazyshell
 * reload`, SIGHUP: docs/architecture.md, "Reload"): each service that keeps
 * a copy of a setting follows `onReconfigure`. Must not import the TUI.
 */

import { environmentUpdate } from "../model/update_env.ts";
import { WorktreeRegistry } from "../git/worktree_registry.ts";
import type { LoadedConfig } from "../config/config.ts";
import { messageOf } from "../errors.ts";
import { loadConfig } from "../config/load.ts";
import type { Env } from "../config/paths.ts";
import type { AgentStatus } from "../model/agent.ts";
import type { HookEvent } from "../model/events.ts";
import {
  type ClientFocus,
  EMPTY_STATE,
  type RuntimeChange,
  type RuntimeState,
} from "../model/runtime.ts";
import type { ConversationRef, SessionView } from "../model/session.ts";
import type { Outcome, SessionRef, Sink } from "../notify/notifier.ts";
import type { Notification } from "../notify/policy.ts";
import type { WatchSpec } from "../notify/watch_rules.ts";
import {
  type SessionHandles,
  type SessionSpec,
  SessionStore,
  type StoreDefaults,
  type StoreEvent,
} from "../session/store.ts";
import type { Session } from "../session/session.ts";
import { type Scheduler, ticker } from "../util/ticker.ts";
import { startResumes } from "./limit_resumes.ts";
import type { ResumeRunner } from "../limits/resume_runner.ts";
import { type Notifications, startNotifications } from "./notifications.ts";
import { type Catalog, loadCatalogSync } from "./catalog.ts";
import { DetectionHub } from "./detection.ts";
import { type EngineEvent, reduceRuntime } from "./state.ts";
import type { Owner } from "../util/guard.ts";
import { Listeners } from "./listeners.ts";
import { SessionSizes } from "./session_sizes.ts";
import type { Size } from "./window_size.ts";

export interface RuntimeOptions {
  readonly env?: Env;
  /** Already-loaded config (tests); default: read config.yml. */
  readonly config?: LoadedConfig;
  /** Session size before a screen tells us better. */
  readonly cols?: number;
  readonly rows?: number;
  /**
   * Without cols/rows: the size a session takes in a terminal of `default_size` (the server:
   * the pane that terminal shows, so that the first client of that size resizes nothing and
   * no scrollback is reflowed before its first frame). Default: `default_size` itself.
   */
  readonly paneSize?: (cols: number, rows: number) => Size;
  /** Working directory for new sessions (default: the current one). */
  readonly cwd?: string;
  /** The runtime's clock (default `Date.now`) and where detection's timers run (the grid). */
  readonly now?: () => number;
  readonly scheduler?: Scheduler;
}

/** The client of a TUI that runs in the runtime's own process (tests, benchmarks). */
export const LOCAL_CLIENT = "local";

/** What a client says its user looks at (`RuntimeState.focus` keeps one per client). */
export type Focus = Omit<ClientFocus, "client">;

/** A listener's owner unless its subscriber names one: a failure is logged, the listener kept. */
const LISTENER: Owner = { name: "runtime listener" };

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
  /** The session store: the runtime's own wiring only (sockets, launch, restore). */
  /** The environment of the client that attached last (update_environment), or null. */
  #clientEnv: Readonly<Record<string, string>> | null = null;
  readonly store: SessionStore;
  /** The sessions' handles and verbs, for consumers (a screen to read, a PTY to write). */
  readonly sessions: SessionHandles;
  /** The git worktrees lazyshell made, kept past their sessions (`ctl worktrees`). */
  readonly worktrees: WorktreeRegistry;
  /** N1–N2: the notifier and what feeds it. */
  readonly #notifications: Notifications;
  /** Agent identity and state per session (src/runtime/detection.ts). */
  readonly #detection: DetectionHub;
  /** Resumes at usage limits' resets (docs/limits.md). */
  readonly #resumes: ResumeRunner;
  readonly #now: () => number;
  #setup: Setup;
  /** The session size RuntimeOptions gave, which outranks config `default_size`. */
  readonly #size: { cols?: number | undefined; rows?: number | undefined };
  readonly #paneSize: (cols: number, rows: number) => Size;
  #reconfigured = new Set<(next: Setup, previous: Setup) => void | Promise<void>>();
  #state: RuntimeState = EMPTY_STATE;
  readonly #changes = new Listeners<RuntimeChange>();
  readonly #outputs = new Listeners<string>();
  #disposers: (() => void | Promise<void>)[] = [];
  /** When each session was last resized: what a shell redraws for it is not new output (●). */
  #resizedAt = new Map<string, number>();
  /** The sessions' PTY sizes from the clients that show them (config `window_size`). */
  readonly #sizes: SessionSizes;

  constructor(options: RuntimeOptions = {}) {
    this.env = options.env ?? Deno.env.toObject();
    this.worktrees = new WorktreeRegistry(this.env);
    this.#setup = {
      loaded: options.config ?? loadConfig(this.env),
      catalog: loadCatalogSync({ env: this.env }),
    };
    this.#size = { cols: options.cols, rows: options.rows };
    this.#paneSize = options.paneSize ?? ((cols, rows) => ({ cols, rows }));
    this.#now = options.now ?? Date.now;
    const env = Object.entries(this.env).filter((e): e is [string, string] => e[1] !== undefined);
    this.store = new SessionStore({
      // Sessions get this runtime's environment (and its SHELL), not the process's.
      env: Object.fromEntries(env),
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
    this.store.configure(this.#storeDefaults());
    this.sessions = this.store;
    this.#sizes = new SessionSizes(this.store, () => this.config.window_size);
    const sub = this.store.on((event) => this.#onStore(event));
    this.own(() => sub[Symbol.dispose]());
    this.#dispatch({ type: "problems", problems: this.catalog.errors.map((e) => e.message) });
    // Detection emits the reducer's own events: straight into it.
    this.#detection = new DetectionHub(this.store, this.catalog, (e) => this.#dispatch(e), {
      now: this.#now,
      ...(options.scheduler ? { scheduler: options.scheduler } : {}),
    });
    this.own(() => this.#detection[Symbol.dispose]());
    this.#notifications = startNotifications(this, (e) => this.#dispatch(e));
    const resumes = startResumes(
      this,
      this.#notifications.notifier,
      options.scheduler ?? ticker,
      this.#now,
    );
    this.#resumes = resumes.runner;
    this.own(resumes.dispose);
  }

  /** Pending resumes at usage limits (docs/limits.md): cancel, confirm, the state file's. */
  get resumes(): ResumeRunner {
    return this.#resumes;
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
    // A new update_environment list applies to the last attached client's variables at once.
    if (this.#clientEnv !== null) this.clientAttached(this.#clientEnv);
    if (next.catalog !== previous.catalog) this.#detection.setCatalog(next.catalog);
    if (next.loaded.config.window_size !== previous.loaded.config.window_size) {
      this.#sizes.policyChanged();
    }
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
    return this.#changes.add(listener, owner);
  }

  /**
   * A session's screen changed (output applied, resized, buffer switched):
   * a pane showing it redraws. Not state: screens are read, not sent.
   */
  onOutput(listener: (id: string) => void, owner = LISTENER): Disposable {
    return this.#outputs.add(listener, owner);
  }

  /** A client says what its user is looking at (`RuntimeState.focus`). */
  setFocus(focus: Focus, client = LOCAL_CLIENT): void {
    this.#dispatch({ type: "focus", focus: { client, ...focus } });
  }

  /** A client left: it looks at nothing, and the sessions it sized are free again. */
  forgetClient(client: string): void {
    this.#sizes.forgetClient(client);
    this.#dispatch({ type: "client-left", client });
  }

  /**
   * The session's PTY takes this client's pane size from now on (the client
   * typed into it or focused it): tmux's "latest" rule (config `window_size`;
   * the other policies size sessions from what clients show, show()).
   */
  claimSize(id: string, client: string, cols: number, rows: number): void {
    this.#sizes.claim(id, client, cols, rows);
  }

  /**
   * The sessions a client shows now (its selected one, or its tiles) and
   * the size of the pane each is shown in: `smallest` and `largest` size
   * each session from the panes that show it (src/runtime/window_size.ts).
   */
  show(client: string, sessions: ReadonlyMap<string, Size>): void {
    this.#sizes.show(client, sessions);
  }

  /**
   * A client's pane changed size: the sessions that follow it (or nobody
   * yet) follow, at the size `tiles` gives them (its tiles) or the pane's.
   * Under `window_size: latest` only.
   */
  resizeFor(client: string, cols: number, rows: number, tiles?: ReadonlyMap<string, Size>): void {
    this.#sizes.resizeFor(client, cols, rows, tiles);
  }

  /** A hook payload named the agent's conversation id (src/ipc/conversation.ts). */
  noteConversation(id: string, conversation: Omit<ConversationRef, "agent">): void {
    this.#dispatch({ type: "conversation", id, conversation });
  }

  /**
   * A client attached with this environment (tmux's update-environment): the
   * variables config `update_environment` lists are set, or removed, for the
   * sessions started from now on (src/model/update_env.ts).
   */
  clientAttached(env: Readonly<Record<string, string>>): void {
    this.#clientEnv = env;
    this.store.updateEnvironment(environmentUpdate(this.config.update_environment, env));
  }

  createSession(spec: SessionSpec = {}): Session {
    return this.store.create(spec);
  }

  /** A hook event for a session (from its hook socket, docs/hooks.md): evidence for detection. */
  hook(id: string, event: HookEvent): void {
    this.#detection.hook(id, event);
  }

  /** A fresh classification of the session right now, for whoever is about to type into it (D7). */
  classifyNow(id: string): AgentStatus | null {
    return this.#detection.classifyNow(id);
  }

  /** The agent's input box now ("" empty), or null when it cannot be read. */
  inputBox(id: string): string | null {
    return this.#detection.input(id);
  }

  /**
   * Arms a session's live watcher pattern (`v`, the watchers tab, a restored
   * session's); "" disarms it. UserError for an unknown session or a bad pattern.
   */
  arm(target: string, pattern: string): void {
    this.#notifications.arm(target, pattern);
  }

  /** The project file's watchers for sessions of this name, from now on (S5, W2); [] forgets. */
  declareWatches(name: string, watch: readonly WatchSpec[]): void {
    this.#notifications.declareWatches(name, watch);
  }

  /** A reloaded project file's watchers, by session name, replacing every declared one. */
  redeclareWatches(watches: ReadonlyMap<string, readonly WatchSpec[]>): void {
    this.#notifications.redeclareWatches(watches);
  }

  /** The notifier's fallback command in force (a reload replaces it). */
  get fallbackCommand(): string | null {
    return this.#notifications.notifier.fallbackCommand;
  }

  /** Project watchers declared for a session name, if any (the state file keeps them). */
  declaredWatches(name: string): readonly WatchSpec[] {
    return this.#notifications.declaredWatches(name);
  }

  /**
   * Where notifications go (OSC 9/777 to the attached clients' terminals):
   * a sink, "stdout" (`serve` on a terminal), or null (the fallback command only).
   */
  notifyTo(sink: Sink | "stdout" | null): void {
    if (sink === "stdout") this.#notifications.useStdout();
    else this.#notifications.setSink(sink);
  }

  /**
   * The notifier (with its episodes) as an agent state of a session it does not run, another
   * host's (src/remote/host_watcher.ts); `status` null: the session is gone there.
   */
  notifyState(session: SessionRef, status: AgentStatus | null): void {
    if (status === null) this.#notifications.notifier.forget(session.id);
    else this.#notifications.notifier.agentState(session, status);
  }

  /** Every notification as it is delivered or held back, with the outcome (logs, tests). */
  onNotified(listener: (n: Notification, outcome: Outcome) => void): Disposable {
    return this.#notifications.notifier.on(listener);
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
        this.#sizes.forgetSession(e.id);
        this.#resizedAt.delete(e.id);
        return this.#dispatch({ type: "session-removed", id: e.id });
      case "session": {
        const id = e.session.id;
        const ev = e.event;
        if (ev.type === "output") {
          this.#output(id);
          const at = this.#now();
          // A first output always counts: the session has printed something (its prompt).
          const first = (this.view(id)?.outputAt ?? 0) === 0;
          if (first || at - (this.#resizedAt.get(id) ?? -Infinity) > RESIZE_REDRAW_MS) {
            this.#dispatch({ type: "output", id, at });
          }
        } else if (ev.type === "resize") {
          this.#resizedAt.set(id, this.#now());
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
            at: this.#now(),
          });
        }
      }
    }
  }

  /** What new sessions take from the config (RuntimeOptions' size outranks `default_size`'s pane). */
  #storeDefaults(): StoreDefaults {
    const config = this.config;
    const pane = this.#paneSize(config.default_size.cols, config.default_size.rows);
    return {
      shell: config.shell,
      cols: this.#size.cols ?? pane.cols,
      rows: this.#size.rows ?? pane.rows,
      scrollback: config.scrollback,
    };
  }

  #output(id: string): void {
    this.#outputs.emit(id, "output listener");
  }

  #dispatch(event: EngineEvent): void {
    const { state, change } = reduceRuntime(this.#state, event);
    this.#state = state;
    if (!change) return;
    this.#changes.emit(change, "state listener");
  }
}
