/**
 * The lazyshell runtime: everything but the screen. `lazyshell serve` runs
 * it alone; the TUI runs it and draws it. Keeping it separate from the TUI
 * is the step toward detach/reattach (DESIGN §2).
 *
 * Owns: config, the session store and the services wired to it (detection,
 * hook and control sockets, notifications, watchers). Services are added
 * here additively; each is disposed with the runtime, in reverse order.
 * Nothing imports app/ except the CLI entry points.
 */

import type { LoadedConfig } from "../config/config.ts";
import { loadConfig } from "../config/load.ts";
import type { Env } from "../config/paths.ts";
import type { SessionInfo } from "../model/session.ts";
import { type SessionSpec, SessionStore, type StoreEvent } from "../session/store.ts";
import type { Session } from "../session/session.ts";
import { type Notifications, startNotifications } from "./notifications.ts";
import { type Catalog, loadCatalogSync } from "./catalog.ts";
import { DetectionHub } from "./detection.ts";

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

/** What the screen (or a headless owner) follows. */
export type RuntimeEvent =
  | StoreEvent
  | { readonly type: "focus"; readonly selected: string | null; readonly terminal: boolean };

export interface Focus {
  /** The session the user is looking at, if any. */
  readonly selected: string | null;
  /** True while keys go to that session's PTY (terminal mode). */
  readonly terminal: boolean;
}

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
  #listeners = new Set<(event: RuntimeEvent) => void>();
  #disposers: (() => void | Promise<void>)[] = [];
  #focus: Focus = { selected: null, terminal: false };

  constructor(options: RuntimeOptions = {}) {
    this.env = options.env ?? Deno.env.toObject();
    this.loaded = options.config ?? loadConfig(this.env);
    const config = this.loaded.config;
    this.store = new SessionStore({
      ...(config.shell ? { shell: config.shell } : {}),
      ...(options.cwd ? { cwd: options.cwd } : {}),
      cols: options.cols ?? config.default_size.cols,
      rows: options.rows ?? config.default_size.rows,
      scrollback: config.scrollback,
    });
    const sub = this.store.on((event) => this.#emit(event));
    this.own(() => sub[Symbol.dispose]());
    this.catalog = loadCatalogSync({ env: this.env });
    this.detection = new DetectionHub(this.store, this.catalog);
    this.own(() => this.detection[Symbol.dispose]());
    this.notifications = startNotifications(this, this.detection);
  }

  get config(): LoadedConfig["config"] {
    return this.loaded.config;
  }

  get focus(): Focus {
    return this.#focus;
  }

  /** The TUI says what the user is looking at (no notification for it, N1). */
  setFocus(focus: Focus): void {
    this.#focus = focus;
    this.#emit({ type: "focus", ...focus });
  }

  createSession(spec: SessionSpec = {}): Session {
    return this.store.create(spec);
  }

  /** Plain data of one session, agent state included. */
  info(session: Session): SessionInfo {
    return {
      ...this.store.info(session),
      agent: this.detection.agent(session.id),
      agentStatus: this.detection.status(session.id),
    };
  }

  list(): SessionInfo[] {
    return this.store.list().map((s) => this.info(s));
  }

  on(listener: (event: RuntimeEvent) => void): Disposable {
    this.#listeners.add(listener);
    return { [Symbol.dispose]: () => this.#listeners.delete(listener) };
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
    this.#listeners.clear();
  }

  #emit(event: RuntimeEvent): void {
    for (const listener of this.#listeners) listener(event);
  }
}
