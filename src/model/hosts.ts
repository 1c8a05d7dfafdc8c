/**
 * Other hosts as the lasting server watches them (docs/remote.md, "Hosts
 * watched"): per `hosts:` entry, whether it is reached, why not and when it
 * is tried again, and its sessions as its control API lists them. Plain
 * data: the TUI draws it, `ctl list --all-hosts` prints it.
 */

import type { AgentStatus } from "./agent.ts";
import type { Prompt } from "./prompt.ts";

export type HostPhase = "connecting" | "up" | "down";

/** One session of another host: what its `ctl list --json` entry says (src/control/entry.ts). */
export interface RemoteSession {
  readonly id: string;
  readonly name: string;
  readonly group: string | null;
  readonly status: "running" | "exited";
  readonly exitCode: number | null;
  readonly signal: number | null;
  readonly agent: string | null;
  readonly state: AgentStatus["state"] | null;
  readonly kind: AgentStatus["kind"];
  readonly msg: string | null;
  readonly seq: number | null;
  readonly since: number | null;
  /** A usage limit's reset (ISO 8601), or null. */
  readonly resetsAt: string | null;
  readonly prompt: Prompt | null;
}

export interface HostView {
  readonly name: string;
  readonly phase: HostPhase;
  /** The last failure, one line (printable), or null. */
  readonly error: string | null;
  /** Failed tries in a row; a host up for a while starts over at 0 (host_state.ts). */
  readonly tries: number;
  /** Epoch ms the host came up (this connection), or null while not up. */
  readonly upSince: number | null;
  /** Epoch ms of the next try while down, else null. */
  readonly retryAt: number | null;
  /** As last listed (kept while down: shown as they were, marked stale). */
  readonly sessions: readonly RemoteSession[];
  /** Epoch ms the host was last listed, or null: never. */
  readonly listedAt: number | null;
}

/** A remote row's key in the TUI's list: never a local session id (those are `session-N`). */
export function remoteKey(host: string, id: string): string {
  return `@${host}/${id}`;
}

/** The host and session of a remote row's key, or null for a local id. */
export function parseRemoteKey(key: string): { host: string; id: string } | null {
  if (!key.startsWith("@")) return null;
  const slash = key.indexOf("/");
  if (slash < 2) return null;
  return { host: key.slice(1, slash), id: key.slice(slash + 1) };
}

/** What a TUI reads of the watched hosts, and asks them (the server's WatchedHosts). */
export interface HostSource {
  table(): readonly HostView[];
  subscribe(listener: () => void): Disposable;
  /** A control request to a host's server over the watched connection; rejects when it is not up. */
  request(
    host: string,
    verb: string,
    args: Record<string, unknown>,
    ms: number,
  ): Promise<HostReply>;
}

/** A control reply as a host's server sent it (the shape of src/ipc/protocol.ts's). */
export type HostReply =
  | { readonly id: number | null; readonly ok: true; readonly result: unknown }
  | { readonly id: number | null; readonly ok: false; readonly error: string };
