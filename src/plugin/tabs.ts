/**
 * Every plugin tab of one lazyshell instance: a PluginHost per discovered
 * plugin, fed the v1 `agents` message and the opt-in extension data
 * (sessions, env, watchers, visibility), its host requests routed, all of
 * them stopped on close (docs/plugin-protocol.md).
 *
 * When each runs: a plugin is started at launch, as protocol v1 says,
 * unless it runs on demand (the built-ins; docs/plugin-protocol.md §7):
 * then it starts when a client shows its tab or one of its commands runs.
 * An on-demand plugin — a built-in, or one whose manifest says `onDemand`
 * — is stopped once no client has shown its tab for IDLE_STOP_MS and it
 * waits for nothing (no exec or request in flight), and starts again the
 * same way. A built-in costs nothing until used (bench/memory.ts).
 *
 * Data comes through the PluginFeed interface, which src/server/plugin_feed.ts adapts from
 * the Runtime's state and change stream; this runtime module imports no tui/.
 */

import type { Env } from "../config/paths.ts";
import type { PluginEntry } from "./discovery.ts";
import type { TerminalHandover } from "./exec.ts";
import { type HostOptions, PluginHost } from "./host.ts";
import type { GroupSpawner } from "./procgroup.ts";
import {
  type AgentEntry,
  encodeMessage,
  type HostMessage,
  type HostRequest,
  type SessionEntry,
  subscriptionsOf,
  type Theme,
  type WatcherEntry,
} from "./protocol.ts";

/** How long an on-demand plugin may stay hidden before it is stopped. */
export const IDLE_STOP_MS = 30_000;

export interface PluginFeed {
  sessions(): SessionEntry[];
  /** The selected session's environment, or null when unknown. */
  environment(sessionId: string): Record<string, string> | null;
  selected(): string | null;
  watchers(): WatcherEntry[];
  agents(): Promise<AgentEntry[]>;
  /** Performs a plugin's host request; throws (UserError) to refuse with a reason. */
  request(request: HostRequest): Promise<void> | void;
}

export interface PluginTabsOptions {
  readonly env: Env;
  /** Plugin sections of config.yml (`<id>:`), passed as init.config. */
  readonly sections: Readonly<Record<string, unknown>>;
  readonly width: number;
  readonly height: number;
  readonly theme?: Theme;
  readonly spawn: GroupSpawner;
  readonly feed: PluginFeed;
  readonly handover?: TerminalHandover;
  /** A tab changed (frame, title, state): the TUI redraws. */
  readonly onChange?: (id: string) => void;
  /** Hidden this long, an on-demand plugin stops (default IDLE_STOP_MS). */
  readonly idleStopMs?: number;
}

export class PluginTabs implements AsyncDisposable {
  readonly hosts: PluginHost[] = [];
  #agents: AgentEntry[] | null = null;
  /** The plugin tab each client shows (null: the sessions tab). */
  #shown = new Map<string, string | null>();
  /** Last extension payload sent per host and type: identical ones are skipped. */
  #sent = new Map<PluginHost, Map<string, string>>();
  /** Hidden on-demand plugins waiting to be stopped. */
  #idle = new Map<PluginHost, ReturnType<typeof setTimeout>>();
  #closed = false;

  #sections: Readonly<Record<string, unknown>>;

  constructor(private readonly options: PluginTabsOptions) {
    this.#sections = options.sections;
  }

  /** A host per plugin (built-ins first, in the given order); those not on demand start now. */
  start(plugins: readonly PluginEntry[]): void {
    for (const entry of plugins) {
      const host: PluginHost = new PluginHost(this.#hostOptions(entry, () => host));
      this.hosts.push(host);
      if (!entry.onDemand) host.start();
    }
    this.refreshAgents();
  }

  /**
   * New config.yml sections (a reload): each plugin whose `<id>:` section
   * changed gets it (restarted if it runs). Returns their ids.
   */
  async setSections(sections: Readonly<Record<string, unknown>>): Promise<string[]> {
    const changed = this.hosts.filter((h) =>
      JSON.stringify(sections[h.id]) !== JSON.stringify(this.#sections[h.id])
    );
    this.#sections = sections;
    await Promise.all(changed.map((h) => h.setConfig(sections[h.id])));
    return changed.map((h) => h.id);
  }

  /** Runs a plugin that is needed now (a command for it): it stops again once hidden and idle. */
  use(id: string): void {
    const host = this.get(id);
    if (!host) return;
    host.wake();
    this.#settle(host);
  }

  get(id: string): PluginHost | undefined {
    return this.hosts.find((h) => h.id === id);
  }

  /** Re-detects agents and sends `agents` to every running plugin. */
  refreshAgents(): void {
    this.options.feed.agents().then((agents) => {
      if (this.#closed) return;
      this.#agents = agents;
      for (const host of this.hosts) host.send({ type: "agents", agents });
    }).catch(() => {/* detection is best effort; tabs keep working */});
  }

  /** Sessions (list, states, stats) changed. */
  sessionsChanged(): void {
    const sessions = this.options.feed.sessions();
    for (const host of this.hosts) this.#sendOnce(host, { type: "sessions", sessions });
  }

  /**
   * The selection changed (or its environment may have): `env` subscribers get it, read once for
   * all of them (a read of the process's environment from /proc), not at all when none subscribes.
   */
  selectionChanged(): void {
    this.sessionsChanged();
    let env: HostMessage | null = null;
    for (const host of this.hosts) {
      if (!host.wants("env")) continue;
      env ??= this.#envMessage();
      this.#sendOnce(host, env);
    }
  }

  watchersChanged(): void {
    const watchers = this.options.feed.watchers();
    for (const host of this.hosts) this.#sendOnce(host, { type: "watchers", watchers });
  }

  /**
   * Which plugin tab `client` shows (null: the sessions tab): a plugin
   * shown starts if it does not run; `visible` subscribers are told
   * whether any client shows theirs.
   */
  show(client: string, id: string | null): void {
    if (this.#shown.get(client) === id && this.#shown.has(client)) return;
    this.#shown.set(client, id);
    this.#visibilityChanged();
    if (id !== null) {
      const host = this.get(id);
      if (host) this.#sendEnv(host);
    }
  }

  /** A client left: its tab is no longer shown. */
  forget(client: string): void {
    if (this.#shown.delete(client)) this.#visibilityChanged();
  }

  /** Which plugin tab is shown, for a single client (null: the sessions tab). */
  setActive(id: string | null): void {
    this.show("", id);
  }

  #visible(host: PluginHost): boolean {
    for (const id of this.#shown.values()) if (id === host.id) return true;
    return false;
  }

  #visibilityChanged(): void {
    for (const host of this.hosts) {
      const visible = this.#visible(host);
      if (visible) host.wake();
      this.#sendOnce(host, { type: "visible", visible });
      this.#settle(host);
    }
  }

  /** Arms or cancels an on-demand plugin's stop: running, hidden → stopped after IDLE_STOP_MS. */
  #settle(host: PluginHost): void {
    const hidden = host.awake && host.onDemand && !this.#visible(host) && !this.#closed;
    const timer = this.#idle.get(host);
    if (!hidden) {
      clearTimeout(timer);
      this.#idle.delete(host);
      return;
    }
    if (timer !== undefined) return;
    this.#idle.set(
      host,
      setTimeout(() => {
        this.#idle.delete(host);
        if (!host.awake || this.#visible(host) || this.#closed) return;
        if (host.busy) return this.#settle(host); // an exec or request still runs: later
        this.#sent.delete(host);
        void host.sleep();
      }, this.options.idleStopMs ?? IDLE_STOP_MS),
    );
  }

  resize(width: number, height: number): void {
    for (const host of this.hosts) host.resize(width, height);
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#idle.values()) clearTimeout(timer);
    this.#idle.clear();
    await Promise.all(this.hosts.map((h) => h.close()));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #hostOptions(entry: PluginEntry, self: () => PluginHost): HostOptions {
    const o = this.options;
    const config = this.#sections[entry.id];
    return {
      entry,
      env: o.env,
      ...(config !== undefined ? { config } : {}),
      width: o.width,
      height: o.height,
      ...(o.theme ? { theme: o.theme } : {}),
      spawn: o.spawn,
      ...(o.handover ? { handover: o.handover } : {}),
      onRequest: (request) => o.feed.request(request),
      onReady: (manifest) => {
        const host = self();
        this.#sent.delete(host);
        if (this.#agents) host.send({ type: "agents", agents: this.#agents });
        const subs = subscriptionsOf(manifest);
        if (subs.has("sessions")) {
          this.#sendOnce(host, { type: "sessions", sessions: o.feed.sessions() });
        }
        if (subs.has("watchers")) {
          this.#sendOnce(host, { type: "watchers", watchers: o.feed.watchers() });
        }
        if (subs.has("visible")) {
          this.#sendOnce(host, { type: "visible", visible: this.#visible(host) });
        }
        if (subs.has("env")) this.#sendEnv(host);
        this.#settle(host);
      },
      onChange: () => {
        this.#settle(self());
        o.onChange?.(entry.id);
      },
    };
  }

  #sendEnv(host: PluginHost): void {
    if (host.wants("env")) this.#sendOnce(host, this.#envMessage());
  }

  #envMessage(): HostMessage {
    const session = this.options.feed.selected();
    const vars = session === null ? {} : this.options.feed.environment(session) ?? {};
    return { type: "env", session, vars };
  }

  #sendOnce(host: PluginHost, message: HostMessage): void {
    let sent = this.#sent.get(host);
    if (!sent) this.#sent.set(host, sent = new Map());
    const line = encodeMessage(message);
    if (sent.get(message.type) === line) return;
    if (host.send(message)) sent.set(message.type, line);
  }
}
