/**
 * Hosts watched by the lasting server (docs/remote.md, "Hosts watched"):
 * for each `hosts:` entry one control connection through the ssh bridge
 * (`lazyshell bridge control` there, no server started), following its
 * session list with the `watch` long poll, two asks pending (a remote
 * lazyshell without it: `list` every 2 s). The table (host_state.ts) says per host up /
 * connecting / down, the last error and the next try; a host that cannot
 * be reached, or drops, is tried again after a backoff (1 s doubling to
 * 60 s, jittered). Each host's loop contains its own failures: nothing one
 * host does reaches another host's loop, the server or the listeners.
 */

import { messageOf, UserError } from "../errors.ts";
import { pause } from "../util/async.ts";
import type { ControlResponse } from "../ipc/protocol.ts";
import type { HostReply, HostView, RemoteSession } from "../model/hosts.ts";
import { printable } from "../model/printable.ts";
import { ControlLink } from "./control_link.ts";
import { connecting, failed, initialHost, listed, stateChanges } from "./host_state.ts";
import type { HostEntry } from "./main.ts";
import { type BridgeTarget, openBridge } from "./transport.ts";

/** How long one `watch` is held there before it answers with the same list. */
const WATCH_SECONDS = 25;
/** A host with no `watch` verb (an older lazyshell): listed this often. */
const POLL_MS = 2000;
/** ssh's handshake and the bridge's greeting, at most. */
const CONNECT_MS = 30_000;

export interface HostWatcherOptions {
  readonly hosts: readonly HostEntry[];
  /** What ssh runs for a host (src/remote/main.ts bridgeTarget). */
  readonly target: (host: HostEntry) => Promise<BridgeTarget>;
  readonly now?: () => number;
  readonly random?: () => number;
  /** A session there changed agent state (the notifier follows it). */
  readonly onState?: (host: string, session: RemoteSession) => void;
  /** A session there is gone from its list. */
  readonly onGone?: (host: string, id: string) => void;
  readonly log?: (line: string) => void;
}

export class HostWatcher implements AsyncDisposable {
  readonly #options: HostWatcherOptions;
  readonly #views = new Map<string, HostView>();
  readonly #links = new Map<string, ControlLink>();
  readonly #listeners = new Set<() => void>();
  readonly #abort = new AbortController();
  readonly #loops: Promise<void>[];

  constructor(options: HostWatcherOptions) {
    this.#options = options;
    for (const h of options.hosts) this.#views.set(h.name, initialHost(h.name));
    this.#loops = options.hosts.map((h) => this.#run(h));
  }

  /** Every host, in config order. */
  table(): readonly HostView[] {
    return [...this.#views.values()];
  }

  /** Called after each change of the table. */
  subscribe(listener: () => void): Disposable {
    this.#listeners.add(listener);
    return { [Symbol.dispose]: () => this.#listeners.delete(listener) };
  }

  /**
   * A control request to a host's server over the watched connection
   * (`answer` from the combined list); a host not up is one line saying so.
   */
  request(
    host: string,
    verb: string,
    args: Record<string, unknown>,
    ms: number,
  ): Promise<ControlResponse> {
    const link = this.#links.get(host);
    const view = this.#views.get(host);
    if (!view) return Promise.reject(new UserError(`No host ${printable(host)} in hosts:`));
    if (!link || link.over || view.phase !== "up") {
      return Promise.reject(
        new UserError(`${printable(host)} is ${view.phase}${view.error ? ` (${view.error})` : ""}`),
      );
    }
    return link.request(verb, args, ms);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.#abort.abort();
    for (const link of this.#links.values()) link.close("the server is ending");
    await Promise.all(this.#loops);
    this.#listeners.clear();
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }

  #set(view: HostView): void {
    this.#views.set(view.name, view);
    for (const listener of [...this.#listeners]) {
      try {
        listener();
      } catch (error) {
        this.#options.log?.(`hosts: a listener failed: ${messageOf(error)}`);
      }
    }
  }

  async #run(host: HostEntry): Promise<void> {
    const signal = this.#abort.signal;
    while (!signal.aborted) {
      this.#set(connecting(this.#views.get(host.name)!));
      let why: string;
      try {
        why = await this.#connected(host, signal);
      } catch (error) {
        why = messageOf(error);
      }
      if (signal.aborted) return;
      const view = failed(
        this.#views.get(host.name)!,
        printable(why),
        this.#now(),
        (this.#options.random ?? Math.random)(),
      );
      this.#set(view);
      await pause(Math.max(0, view.retryAt! - this.#now()), signal);
    }
  }

  /** Connects and follows the host's list until the link ends; resolves with why it did. */
  async #connected(host: HostEntry, signal: AbortSignal): Promise<string> {
    const target = await this.#options.target(host);
    const connect = AbortSignal.any([signal, AbortSignal.timeout(CONNECT_MS)]);
    const bridge = await openBridge(target, "control", false, connect);
    if (signal.aborted) {
      bridge.conn.close();
      return "the server is ending";
    }
    const link = new ControlLink(bridge.conn);
    this.#links.set(host.name, link);
    try {
      await Promise.race([this.#follow(host.name, link), link.closed]);
    } catch (error) {
      link.close(messageOf(error));
    } finally {
      this.#links.delete(host.name);
    }
    link.close();
    return await link.closed;
  }

  async #follow(name: string, link: ControlLink): Promise<void> {
    const watchMs = (WATCH_SECONDS + 15) * 1000;
    const first = await link.request("watch", {}, watchMs);
    if (!first.ok && first.error.startsWith("Unknown verb: watch")) {
      return await this.#poll(name, link);
    }
    let version = this.#take(name, first).version;
    if (version === null) return await this.#poll(name, link);
    // Two asks pending there (past version and past version + 1): while the reply to one travels,
    // the other waits for the next change (docs/remote.md, "Hosts watched").
    const pending = new Map<number, Promise<{ since: number; r: HostReply }>>();
    const ask = (since: number) => {
      if (pending.has(since)) return;
      const p = link.request("watch", { since, timeout: WATCH_SECONDS }, watchMs)
        .then((r) => ({ since, r }));
      p.catch(() => {}); // the link's end is read from the race below
      pending.set(since, p);
    };
    while (!link.over) {
      ask(version);
      ask(version + 1);
      const { since, r } = await Promise.race(pending.values());
      pending.delete(since);
      const got = this.#take(name, r, version);
      if (got.version !== null && got.version > version) version = got.version;
    }
  }

  /**
   * A `watch` reply: listed when newer than `version` (any, without one); its version, or null
   * when it has none (a `watch` with digests only).
   */
  #take(name: string, r: HostReply, version = -1): { version: number | null } {
    if (!r.ok) throw new UserError(`on ${printable(name)}: ${printable(r.error)}`);
    const result = r.result as { version?: unknown; sessions?: unknown } | null;
    if (!Array.isArray(result?.sessions)) throw new UserError("a list reply without sessions");
    const v = typeof result.version === "number" ? result.version : null;
    if (v === null || v > version) this.#listed(name, result.sessions as RemoteSession[]);
    return { version: v };
  }

  /** A host without `watch` (an older lazyshell): `list` every POLL_MS. */
  async #poll(name: string, link: ControlLink): Promise<void> {
    while (!link.over) {
      this.#take(name, await link.request("list", {}, 30_000));
      await pause(POLL_MS, this.#abort.signal);
    }
  }

  #listed(name: string, sessions: readonly RemoteSession[]): void {
    const before = this.#views.get(name)!;
    const news = stateChanges(before.listedAt === null ? null : before.sessions, sessions);
    this.#set(listed(before, sessions, this.#now()));
    const ids = new Set(sessions.map((s) => s.id));
    const gone = before.sessions.filter((s) => !ids.has(s.id));
    try {
      for (const s of gone) this.#options.onGone?.(name, s.id);
      for (const session of news) this.#options.onState?.(name, session);
    } catch (error) {
      this.#options.log?.(`hosts: ${name}: a notification failed: ${messageOf(error)}`);
    }
  }
}
