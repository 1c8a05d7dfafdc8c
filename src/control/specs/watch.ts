/**
 * `watch [--digest D] [--timeout SEC]`: the session list once it differs
 * from the one a caller last saw (docs/control-api.md, "Following the
 * list"). A list whose digest is not D is returned at once; one that is D
 * is held until a session is added, removed or changes what `list` shows,
 * or until the timeout (then the same list again). With `--since V`: held
 * until the list's version (one more each time the list changed) is past V;
 * a client that keeps `--since V` and `--since V+1` pending (docs/remote.md,
 * "Hosts watched") has one waiting there while the other's reply travels,
 * so two changes in one trip both come at once. No polling.
 */

import { defineSpec, num } from "../spec.ts";
import type { SessionEntry } from "../entry.ts";

export const DEFAULT_WATCH_SECONDS = 25;
export const MAX_WATCH_SECONDS = 600;

export interface WatchResult {
  /** What to send back as `--digest` (opaque: a hash of the list). */
  readonly digest: string;
  /** The list's version on this server: one more each time it changed (for `--since`). */
  readonly version: number;
  readonly sessions: SessionEntry[];
}

export default defineSpec<WatchResult>({
  name: "watch",
  summary: "The session list once it differs from the one last seen (long poll)",
  args: [
    { name: "digest", type: "string", meta: "D", help: "the digest of the list last seen" },
    {
      name: "since",
      type: "int",
      meta: "V",
      help: "instead of --digest: reply once the list's version is past V",
    },
    {
      name: "timeout",
      type: "number",
      meta: "SEC",
      max: MAX_WATCH_SECONDS,
      help: `reply with the same list after SEC seconds (default ${DEFAULT_WATCH_SECONDS})`,
    },
  ],
  format({ digest, version, sessions }) {
    return `${digest} v${version} ${sessions.length} session${sessions.length === 1 ? "" : "s"}`;
  },
  clientTimeoutMs(args) {
    return ((num(args, "timeout") ?? DEFAULT_WATCH_SECONDS) + 15) * 1000;
  },
});
