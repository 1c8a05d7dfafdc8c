/**
 * The server's watched hosts (docs/remote.md, "Hosts watched"): a
 * HostWatcher (src/remote/host_watcher.ts) over config `hosts:`, made again
 * when a reload changes them; their sessions' agent states go to the
 * runtime's notifier, with the host's name, once per episode like local
 * ones. What the TUI and `ctl list --all-hosts` read.
 */

import type { AgentStatus } from "../model/agent.ts";
import { type HostSource, type HostView, remoteKey, type RemoteSession } from "../model/hosts.ts";
export type { HostSource };
import type { ControlResponse } from "../ipc/protocol.ts";
import { UserError } from "../errors.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { HostWatcher } from "../remote/host_watcher.ts";
import { bridgeTarget, type HostEntry } from "../remote/main.ts";

export class WatchedHosts implements HostSource, AsyncDisposable {
  #watcher: HostWatcher | null = null;
  #key = "";
  #sub: Disposable | null = null;
  readonly #listeners = new Set<() => void>();
  readonly #runtime: Runtime;
  readonly #version: string;
  readonly #log: (line: string) => void;
  readonly #reloads: Disposable;

  constructor(runtime: Runtime, version: string, log: (line: string) => void) {
    this.#runtime = runtime;
    this.#version = version;
    this.#log = log;
    this.#follow(runtime.config.hosts);
    this.#reloads = runtime.onReconfigure(({ loaded: { config } }) => this.#follow(config.hosts));
  }

  table(): readonly HostView[] {
    return this.#watcher?.table() ?? [];
  }

  subscribe(listener: () => void): Disposable {
    this.#listeners.add(listener);
    return { [Symbol.dispose]: () => this.#listeners.delete(listener) };
  }

  request(
    host: string,
    verb: string,
    args: Record<string, unknown>,
    ms: number,
  ): Promise<ControlResponse> {
    if (!this.#watcher) return Promise.reject(new UserError("No hosts: in config.yml"));
    return this.#watcher.request(host, verb, args, ms);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.#reloads[Symbol.dispose]();
    await this.#stop();
    this.#listeners.clear();
  }

  /** Starts watching `hosts`, unless they are the ones watched already. */
  #follow(hosts: readonly HostEntry[]): void {
    const key = JSON.stringify(hosts);
    if (key === this.#key) return;
    this.#key = key;
    void this.#stop();
    if (hosts.length === 0) return this.#changed();
    const env = this.#runtime.env;
    const watcher = new HostWatcher({
      hosts,
      target: (h) => bridgeTarget(h.name, env, this.#version),
      onState: (host, s) => this.#runtime.notifyState(refOf(host, s), statusOf(s)),
      onGone: (host, id) => this.#runtime.notifyState({ id: remoteKey(host, id), name: id }, null),
      log: this.#log,
    });
    this.#watcher = watcher;
    this.#sub = watcher.subscribe(() => this.#changed());
    this.#changed();
  }

  async #stop(): Promise<void> {
    const old = this.#watcher;
    this.#sub?.[Symbol.dispose]();
    this.#watcher = this.#sub = null;
    await old?.[Symbol.asyncDispose]();
  }

  #changed(): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener();
      } catch (error) {
        this.#log(`hosts: a listener failed: ${error instanceof Error ? error.message : error}`);
      }
    }
  }
}

function refOf(host: string, s: RemoteSession) {
  return { id: remoteKey(host, s.id), name: s.name, agent: s.agent, host };
}

/** The remote entry's state as the notifier's episodes read it. */
function statusOf(s: RemoteSession): AgentStatus {
  return {
    state: s.state!,
    kind: s.kind,
    source: "declared",
    ruleId: "remote",
    seq: s.seq ?? 0,
    since: s.since ?? Date.now(),
    msg: s.msg,
    resetsAt: s.resetsAt === null ? null : Date.parse(s.resetsAt),
  };
}
