/**
 * Pattern watchers on live sessions (SPEC W1–W2).
 *
 * Where lines come from: the session's own emulator. xterm fires
 * `onLineFeed` once per line feed while it parses, right after the line
 * was written; at that moment the line the cursor left is complete, its
 * `\r` overwrites and cursor moves are already applied, and escapes are
 * gone (`translateToString`). So each completed line of visible output is
 * tested exactly once, never on a redraw, and a soft-wrapped line is
 * joined back into one. Matching is skipped while the alternate screen is
 * active (full-screen programs redraw; their "lines" are not output).
 *
 * Owns: the per-session watch lists and their line-feed subscriptions (a
 * session with no watcher costs nothing). Must not import tui/ or app/.
 */

import type { Session } from "../session/session.ts";
import type { XTerm } from "../session/terminal.ts";
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
  | { readonly type: "match"; readonly sessionId: string; readonly pattern: string };

interface Entry {
  readonly session: Session;
  readonly watches: SessionWatches;
  feed: { dispose(): void } | null;
}

export class Watchers implements Disposable {
  readonly #options: WatchersOptions;
  readonly #entries = new Map<string, Entry>();
  #listeners = new Set<(e: WatchersEvent) => void>();

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

  /** Stops watching a removed session. */
  remove(sessionId: string): void {
    const entry = this.#entries.get(sessionId);
    entry?.feed?.dispose();
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
    for (const entry of this.#entries.values()) entry.feed?.dispose();
    this.#entries.clear();
    this.#listeners.clear();
  }

  /** Subscribes to line feeds only while the session has a watcher. */
  #sync(entry: Entry): void {
    if (entry.watches.empty) {
      entry.feed?.dispose();
      entry.feed = null;
    } else if (!entry.feed) {
      const xterm = entry.session.terminal.xterm;
      entry.feed = xterm.onLineFeed(() => this.#onLine(entry, xterm));
    }
  }

  #onLine(entry: Entry, xterm: XTerm): void {
    const buffer = xterm.buffer.active;
    if (buffer.type === "alternate") return;
    const line = completedLine(xterm);
    if (line === null) return;
    const now = (this.#options.now ?? Date.now)();
    for (const watch of entry.watches.test(line, now)) {
      const { session } = entry;
      this.#emit({ type: "match", sessionId: session.id, pattern: watch.pattern });
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

  #emit(e: WatchersEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(e);
      } catch { /* a listener must not break matching */ }
    }
  }
}

/**
 * The logical line the cursor just left on a line feed: the row above the
 * cursor, joined with the rows it soft-wrapped from.
 */
export function completedLine(xterm: XTerm): string | null {
  const buffer = xterm.buffer.active;
  const end = buffer.baseY + buffer.cursorY - 1;
  if (end < 0) return null;
  let start = end;
  while (start > 0 && buffer.getLine(start)?.isWrapped) start--;
  if (start === end) return buffer.getLine(end)?.translateToString(true) ?? null;
  let text = "";
  for (let y = start; y <= end; y++) {
    text += buffer.getLine(y)?.translateToString(y === end) ?? "";
  }
  return text;
}
