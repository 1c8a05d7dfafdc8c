/**
 * Every plugin tab of one lazyshell instance: starts a PluginHost per
 * discovered plugin, feeds them the v1 `agents` message and the opt-in
 * extension data (sessions, env, watchers, visibility), routes their host
 * requests, and stops them all on close (docs/plugin-protocol.md).
 *
 * Data comes through the PluginFeed interface, which src/tui/plugin_tabs.ts adapts from
 * the Runtime; this runtime module imports neither app/ nor tui/.
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
}

export class PluginTabs implements AsyncDisposable {
  readonly hosts: PluginHost[] = [];
  #agents: AgentEntry[] | null = null;
  #active: string | null = null;
  /** Last extension payload sent per host and type: identical ones are skipped. */
  #sent = new Map<PluginHost, Map<string, string>>();
  #closed = false;

  constructor(private readonly options: PluginTabsOptions) {}

  /** Starts one host per plugin (built-ins first, in the given order). */
  start(plugins: readonly PluginEntry[]): void {
    for (const entry of plugins) {
      const host: PluginHost = new PluginHost(this.#hostOptions(entry, () => host));
      this.hosts.push(host);
      host.start();
    }
    this.refreshAgents();
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

  /** The selection changed (or its environment may have): `env` subscribers get it. */
  selectionChanged(): void {
    this.sessionsChanged();
    for (const host of this.hosts) this.#sendEnv(host);
  }

  watchersChanged(): void {
    const watchers = this.options.feed.watchers();
    for (const host of this.hosts) this.#sendOnce(host, { type: "watchers", watchers });
  }

  /** Which plugin tab is shown (null: the sessions tab); `visible` subscribers are told. */
  setActive(id: string | null): void {
    if (id === this.#active) return;
    this.#active = id;
    for (const host of this.hosts) {
      this.#sendOnce(host, { type: "visible", visible: host.id === id });
    }
    if (id !== null) {
      const host = this.get(id);
      if (host) this.#sendEnv(host);
    }
  }

  resize(width: number, height: number): void {
    for (const host of this.hosts) host.resize(width, height);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.hosts.map((h) => h.close()));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #hostOptions(entry: PluginEntry, self: () => PluginHost): HostOptions {
    const o = this.options;
    const config = o.sections[entry.id];
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
          this.#sendOnce(host, { type: "visible", visible: this.#active === host.id });
        }
        if (subs.has("env")) this.#sendEnv(host);
      },
      onChange: () => o.onChange?.(entry.id),
    };
  }

  #sendEnv(host: PluginHost): void {
    const session = this.options.feed.selected();
    const vars = session === null ? {} : this.options.feed.environment(session) ?? {};
    this.#sendOnce(host, { type: "env", session, vars });
  }

  #sendOnce(host: PluginHost, message: HostMessage): void {
    let sent = this.#sent.get(host);
    if (!sent) this.#sent.set(host, sent = new Map());
    const line = encodeMessage(message);
    if (sent.get(message.type) === line) return;
    if (host.send(message)) sent.set(message.type, line);
  }
}
