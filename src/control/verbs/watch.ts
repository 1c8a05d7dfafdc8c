/** `watch`'s body; its spec (and what it does) is ../specs/watch.ts. */

import { defineVerb, num, str } from "../verb.ts";
import { sessionEntry } from "../entry.ts";
import type { ControlHost } from "../host.ts";
import spec, { DEFAULT_WATCH_SECONDS, type WatchResult } from "../specs/watch.ts";

export default defineVerb(spec, ({ host, signal }, args) => {
  const seen = str(args, "digest");
  const first = snapshot(host);
  if (first.digest !== seen) return first;
  const timeoutMs = (num(args, "timeout") ?? DEFAULT_WATCH_SECONDS) * 1000;
  return new Promise<WatchResult>((resolve) => {
    let due: ReturnType<typeof setTimeout> | undefined;
    const finish = () => {
      clearTimeout(timer);
      clearTimeout(due);
      sub[Symbol.dispose]();
      signal.removeEventListener("abort", finish);
      resolve(snapshot(host));
    };
    // Changes of one turn of the event loop are one reply (a burst of state changes).
    const sub = host.subscribe((change) => {
      if (change.type !== "added" && change.type !== "updated" && change.type !== "removed") {
        return;
      }
      due ??= setTimeout(() => {
        due = undefined;
        if (snapshot(host).digest !== seen) finish();
      }, 0);
    });
    const timer = setTimeout(finish, timeoutMs);
    signal.addEventListener("abort", finish);
  });
});

function snapshot(host: ControlHost): WatchResult {
  const sessions = host.sessions.list().flatMap((s) => {
    const view = host.view(s.id);
    return view ? [sessionEntry(view)] : [];
  });
  return { digest: digest(JSON.stringify(sessions)), sessions };
}

/** Two 32-bit FNV-1a hashes (different offsets) of the text, as 16 hex digits. */
export function digest(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}
