/**
 * Pattern watchers on live sessions (docs/notifications.md).
 *
 * Where lines come from: the session's raw output (`Session.tap`), cut
 * into completed lines by a LineAssembler (escapes stripped, `\r`
 * overwrites applied, alternate screen tracked in-stream). Each byte is
 * seen once, so each completed line is tested exactly once, never on a
 * redraw. Reading lines back from the emulator at each line feed was the
 * first design; it cost about 12 µs a line against a 10% budget of ~1 µs
 * (bench/watchers.ts), so it went.
 *
 * Owns: the per-session watch lists and their taps (a session with no
 * watcher costs nothing). Must not import tui/ or runtime/.
 */

import type { Session } from "../session/session.ts";
import { LineAssembler } from "./line_assembler.ts";
import { watchText } from "./policy.ts";
import type { Notification } from "./policy.ts";
import { SessionWatches, type WatchInfo, type WatchSpec } from "./watch_rules.ts";

export interface WatchersOptions {
  /** Where a match goes (the Notifier). */
  readonly notify: (n: Notification) => void;
  readonly now?: () => number;
}

export type WatchersEvent =
  | { readonly type: "armed"; readonly sessionId: string; readonly pattern: string | null }
  /** The project file's watchers of a session were replaced (a reload). */
  | { readonly type: "declared"; readonly sessionId: string }
  /**
   * Match counts changed. Coalesced: at most one per session and pattern
   * every MATCH_EVENT_MS, so a burst of matching lines cannot flood a
   * listener (the watchers tab is a plugin behind a bounded queue).
   */
  | { readonly type: "match"; readonly sessionId: string; readonly pattern: string };

export const MATCH_EVENT_MS = 250;

interface Entry {
  readonly session: Session;
  readonly watches: SessionWatches;
  feed: Disposable | null;
}

export class Watchers implements Disposable {
  readonly #options: WatchersOptions;
  readonly #entries = new Map<string, Entry>();
  #listeners = new Set<(e: WatchersEvent) => void>();
  #pendingMatches = new Map<string, { sessionId: string; pattern: string }>();
  #matchTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: WatchersOptions) {
    this.#options = options;
  }

  /**
   * Starts watching a session with the project file's watchers (already
   * validated: compiling them again cannot fail). Idempotent per session.
   */
  add(session: Session, file: readonly WatchSpec[] = []): void {
    if (this.#entries.has(session.id)) return;
    const entry: Entry = { session, watches: new SessionWatches(file), feed: null };
    this.#entries.set(session.id, entry);
    this.#sync(entry);
  }

  /** A reload changed the project file's watchers of a session; its live pattern stays. */
  setFile(session: Session, file: readonly WatchSpec[]): void {
    const entry = this.#entries.get(session.id);
    if (!entry) {
      if (file.length > 0) this.add(session, file);
    } else {
      entry.watches.setFile(file);
      this.#sync(entry);
    }
    this.#emit({ type: "declared", sessionId: session.id });
  }

  /** The session runs a new child (`W`): keep its watchers, read the new output. */
  rebind(session: Session): void {
    const old = this.#entries.get(session.id);
    if (!old) return;
    old.feed?.[Symbol.dispose]();
    const entry: Entry = { session, watches: old.watches, feed: null };
    this.#entries.set(session.id, entry);
    this.#sync(entry);
  }

  /** Stops watching a removed session. */
  remove(sessionId: string): void {
    const entry = this.#entries.get(sessionId);
    entry?.feed?.[Symbol.dispose]();
    this.#entries.delete(sessionId);
  }

  /**
   * Arms the session's live pattern (`v`, the watchers tab); "" disarms it.
   * Throws UserError for an unknown session or an invalid pattern, and then
   * changes nothing.
   */
  arm(session: Session, pattern: string): void {
    if (!this.#entries.has(session.id)) this.add(session);
    const entry = this.#entries.get(session.id)!;
    entry.watches.arm(pattern);
    this.#sync(entry);
    this.#emit({ type: "armed", sessionId: session.id, pattern: pattern || null });
  }

  /** The live pattern of a session, if armed. */
  armed(sessionId: string): string | null {
    return this.#entries.get(sessionId)?.watches.live?.pattern ?? null;
  }

  list(sessionId?: string): WatchInfo[] {
    const out: WatchInfo[] = [];
    for (const [id, entry] of this.#entries) {
      if (sessionId !== undefined && id !== sessionId) continue;
      for (const w of entry.watches.all()) {
        out.push({
          sessionId: id,
          pattern: w.pattern,
          source: w.source,
          notify: w.notify,
          matches: w.matches,
          lastLine: w.lastLine,
          lastMatchAt: w.lastMatchAt,
        });
      }
    }
    return out;
  }

  on(listener: (e: WatchersEvent) => void): Disposable {
    this.#listeners.add(listener);
    return { [Symbol.dispose]: () => this.#listeners.delete(listener) };
  }

  [Symbol.dispose](): void {
    for (const entry of this.#entries.values()) entry.feed?.[Symbol.dispose]();
    this.#entries.clear();
    this.#listeners.clear();
    clearTimeout(this.#matchTimer);
    this.#matchTimer = undefined;
    this.#pendingMatches.clear();
  }

  /** Taps the session's output only while it has a watcher. */
  #sync(entry: Entry): void {
    if (entry.watches.empty) {
      entry.feed?.[Symbol.dispose]();
      entry.feed = null;
    } else if (!entry.feed) {
      const { watches } = entry;
      const lines = new LineAssembler(
        entry.session.altScreen,
        (text, from) => watches.find(text, from),
      );
      const onLine = (line: string) => this.#onLine(entry, line);
      entry.feed = entry.session.tap((data) => lines.push(data, onLine));
    }
  }

  #onLine(entry: Entry, line: string): void {
    const result = entry.watches.test(line, (this.#options.now ?? Date.now)());
    if (result === null) return;
    const { session } = entry;
    for (const watch of result.matched) this.#matched(session.id, watch.pattern);
    for (const watch of result.fire) {
      this.#options.notify({
        sessionId: session.id,
        sessionName: session.name,
        reason: "watch",
        text: watchText(session.name, watch.pattern, line),
        key: `watch:${watch.source}:${watch.pattern}`,
        minIntervalMs: 0,
      });
    }
  }

  #matched(sessionId: string, pattern: string): void {
    if (this.#listeners.size === 0) return;
    this.#pendingMatches.set(`${sessionId}\0${pattern}`, { sessionId, pattern });
    this.#matchTimer ??= setTimeout(() => {
      this.#matchTimer = undefined;
      const pending = [...this.#pendingMatches.values()];
      this.#pendingMatches.clear();
      for (const m of pending) this.#emit({ type: "match", ...m });
    }, MATCH_EVENT_MS);
  }

  #emit(e: WatchersEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(e);
      } catch { /* a listener must not break matching */ }
    }
  }
}
