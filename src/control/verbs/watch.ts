/** `watch`'s body; its spec (and what it does) is ../specs/watch.ts. */

import { defineVerb, num, str } from "../verb.ts";
import { sessionEntry } from "../entry.ts";
import type { ControlHost } from "../host.ts";
import spec, { DEFAULT_WATCH_SECONDS, type WatchResult } from "../specs/watch.ts";

/**
 * The list's version per control host: bumped each time a `watch` finds the list's digest
 * changed (no subscription while nobody watches: what changed meanwhile is one bump).
 */
const versions = new WeakMap<ControlHost, { version: number; digest: string }>();

export default defineVerb(spec, ({ host, signal }, args) => {
  const seen = str(args, "digest");
  const since = num(args, "since");
  let known = versions.get(host);
  if (!known) versions.set(host, known = { version: 0, digest: "" });
  const t = known;
  const now = (): WatchResult => {
    const snap = snapshot(host);
    if (snap.digest !== t.digest) {
      t.digest = snap.digest;
      t.version++;
    }
    return { ...snap, version: t.version };
  };
  const news = (r: WatchResult) => since !== undefined ? r.version > since : r.digest !== seen;
  const first = now();
  if (news(first)) return first;
  const timeoutMs = (num(args, "timeout") ?? DEFAULT_WATCH_SECONDS) * 1000;
  return new Promise<WatchResult>((resolve) => {
    let due: ReturnType<typeof setTimeout> | undefined;
    const finish = (r: WatchResult) => {
      clearTimeout(timer);
      clearTimeout(due);
      sub[Symbol.dispose]();
      signal.removeEventListener("abort", onAbort);
      resolve(r);
    };
    const onAbort = () => finish(now());
    // Changes of one turn of the event loop are one reply (a burst of state changes).
    const sub = host.subscribe((change) => {
      if (change.type !== "added" && change.type !== "updated" && change.type !== "removed") {
        return;
      }
      due ??= setTimeout(() => {
        due = undefined;
        const r = now();
        if (news(r)) finish(r);
      }, 0);
    });
    const timer = setTimeout(() => finish(now()), timeoutMs);
    signal.addEventListener("abort", onAbort);
  });
});

function snapshot(host: ControlHost): Omit<WatchResult, "version"> {
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
