/**
 * `hosts`: this server's sessions and those of every host it watches
 * (docs/remote.md, "Hosts watched"), from its table: no ssh is run for the
 * request. `ctl list --all-hosts` prints it when a server runs.
 */

import { defineSpec } from "../spec.ts";
import type { SessionEntry } from "../entry.ts";

export interface WatchedHost {
  readonly host: string;
  readonly up: boolean;
  readonly phase: "connecting" | "up" | "down";
  readonly error: string | null;
  readonly tries: number;
  /** ISO 8601 of the next try while down, else null. */
  readonly retryAt: string | null;
  /** As last listed (kept while down). */
  readonly sessions: readonly SessionEntry[];
}

export interface HostsResult {
  /** `local` first, then the `hosts:` entries in config order. */
  readonly hosts: readonly WatchedHost[];
}

export default defineSpec<HostsResult>({
  name: "hosts",
  summary: "This server's sessions and the watched hosts' (up, connecting, down), from its table",
  args: [],
  format({ hosts }) {
    return hosts.map((h) =>
      `${h.host}: ${h.phase}${h.error ? ` (${h.error})` : ""}, ${h.sessions.length} session${
        h.sessions.length === 1 ? "" : "s"
      }`
    ).join("\n");
  },
});
