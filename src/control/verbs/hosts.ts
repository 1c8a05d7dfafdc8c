/** `hosts`'s body; its spec (and what it does) is ../specs/hosts.ts. */

import { defineVerb } from "../verb.ts";
import { entryOf } from "../entry.ts";
import spec, { type WatchedHost } from "../specs/hosts.ts";
import type { SessionEntry } from "../entry.ts";

export default defineVerb(spec, ({ host }) => {
  const local: WatchedHost = {
    host: "local",
    up: true,
    phase: "up",
    error: null,
    tries: 0,
    retryAt: null,
    sessions: host.sessions.list().map((s) => entryOf(host, s)),
  };
  const watched = (host.hosts?.() ?? []).map((h): WatchedHost => ({
    host: h.name,
    up: h.phase === "up",
    phase: h.phase,
    error: h.error,
    tries: h.tries,
    retryAt: h.retryAt === null ? null : new Date(h.retryAt).toISOString(),
    // As the host's own `list` gave them (the whole entries).
    sessions: h.sessions as readonly SessionEntry[],
  }));
  return { hosts: [local, ...watched] };
});
