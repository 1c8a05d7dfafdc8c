/**
 * The DetectionHub (docs/detection.md): follows every session
 * of a SessionStore and keeps one arbitrated AgentStatus per session.
 *
 * Scheduling (D7): screen classification after output settles (trailing
 * debounce `settleMs`, at most `maxWaitMs` after the first unclassified
 * output, coalesced), at once on OSC 133;A and OSC 7501 records, and
 * synchronously through `classifyNow()` before anything types into a
 * session. Identity comes from the PTY's foreground process (S4); rules
 * read only the rows they need (session/screen_view.ts).
 *
 * The hub owns the store subscription, one SessionDetector per session
 * (session_detector.ts: its state and timers — one settle timer at most,
 * one for a visible blocker going stale, a foreground sampler while a
 * declared working/blocked is live, all on the shared timer grid,
 * util/ticker.ts) and the listeners; `dispose` clears them all.
 */

import type { AgentStatus } from "../model/agent.ts";
import type { DetectionEvent, HookEvent } from "../model/events.ts";
import type { Osc7501Record } from "../detect/osc7501.ts";
import type { Prompt } from "../model/prompt.ts";
import type { Session } from "../session/session.ts";
import { MID_UPDATE_MAX_MS } from "../session/terminal.ts";
import type { SessionStore, StoreEvent } from "../session/store.ts";
import type { Catalog } from "./catalog.ts";
import { type DetectorContext, SessionDetector } from "./session_detector.ts";

export type { DetectionEvent, HookEvent } from "../model/events.ts";

export interface DetectionOptions {
  readonly now?: () => number;
  /** Quiet time after output before classifying (default 30 ms). */
  readonly settleMs?: number;
  /** Longest delay between output and a classification under steady output (default 100 ms). */
  readonly maxWaitMs?: number;
  /** Longest hold on a half-drawn frame (default MID_UPDATE_MAX_MS; tests lengthen it). */
  readonly midUpdateMaxMs?: number;
}

export class DetectionHub implements Disposable {
  #catalog: Catalog;
  readonly #context: DetectorContext;
  #sessions = new Map<string, SessionDetector>();
  #listeners = new Set<(e: DetectionEvent) => void>();
  #subscription: Disposable;
  #disposed = false;

  constructor(store: SessionStore, catalog: Catalog, options: DetectionOptions = {}) {
    this.#catalog = catalog;
    this.#context = {
      catalog,
      identities: catalog.identities(),
      now: options.now ?? Date.now,
      settleMs: options.settleMs ?? 30,
      maxWaitMs: options.maxWaitMs ?? 100,
      midUpdateMaxMs: options.midUpdateMaxMs ?? MID_UPDATE_MAX_MS,
      disposed: () => this.#disposed,
      current: (d) => this.#sessions.get(d.session.id) === d,
      emit: (e) => this.#emit(e),
    };
    for (const session of store.list()) this.#track(session);
    this.#subscription = store.on((e) => this.#onStore(e));
  }

  /**
   * New manifests (a reload): every running session is identified and
   * classified again with them at once; what it declared or its hooks said
   * stays (docs/detection.md, Arbitration).
   */
  setCatalog(catalog: Catalog): void {
    if (this.#disposed) return;
    this.#catalog = catalog;
    this.#context.catalog = catalog;
    this.#context.identities = catalog.identities();
    for (const d of this.#sessions.values()) d.catalogChanged();
  }

  /** The arbitrated state; null = nothing to show (plain shell, nothing declared). */
  status(id: string): AgentStatus | null {
    return this.#sessions.get(id)?.status ?? null;
  }

  /** The catalogued agent in the session's foreground, or null. */
  agent(id: string): string | null {
    return this.#sessions.get(id)?.agent ?? null;
  }

  /** False → the TUI shows a dim "no status" mark for this agent (A1). */
  hasRules(agent: string): boolean {
    return (this.#catalog.get(agent)?.rules.length ?? 0) > 0;
  }

  /** The session's program asked the OSC 7501 `?` query (and was answered). */
  capable(id: string): boolean {
    return this.#sessions.get(id)?.capable ?? false;
  }

  /** The last OSC 7501 records of a session (at most 256), for "explain". */
  records(id: string): readonly Osc7501Record[] {
    return this.#sessions.get(id)?.records ?? [];
  }

  /** What the blocked session asks, as last classified; null unless blocked and readable. */
  prompt(id: string): Prompt | null {
    return this.#sessions.get(id)?.prompt ?? null;
  }

  /** The agent's input box right now ("" empty), or null (no reader, no box on screen). */
  input(id: string): string | null {
    return this.#sessions.get(id)?.input() ?? null;
  }

  /** A hook event from the hook server (issue 4); latches the session (D4). */
  hook(id: string, event: HookEvent): void {
    const d = this.#sessions.get(id);
    if (!d || this.#disposed) return;
    d.hook(event);
  }

  /** A fresh synchronous classification, for callers about to type into a session (D7). */
  classifyNow(id: string): AgentStatus | null {
    const d = this.#sessions.get(id);
    if (!d || this.#disposed) return null;
    return d.classifyNow();
  }

  on(listener: (e: DetectionEvent) => void): Disposable {
    this.#listeners.add(listener);
    return { [Symbol.dispose]: () => this.#listeners.delete(listener) };
  }

  [Symbol.dispose](): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#subscription[Symbol.dispose]();
    for (const d of this.#sessions.values()) d.stopTimers();
    this.#sessions.clear();
    this.#listeners.clear();
  }

  #onStore(e: StoreEvent): void {
    if (this.#disposed) return;
    switch (e.type) {
      case "added":
        this.#track(e.session);
        return;
      case "removed":
        this.#sessions.get(e.id)?.stopTimers();
        this.#sessions.delete(e.id);
        return;
      case "replaced":
        // A new child in the same session: what was known of the old one goes.
        this.#sessions.get(e.session.id)?.stopTimers();
        this.#sessions.delete(e.session.id);
        this.#track(e.session);
        return;
      case "session":
        this.#sessions.get(e.session.id)?.onSession(e.event);
        return;
      case "changed":
        return;
    }
  }

  #track(session: Session): void {
    if (this.#sessions.has(session.id)) return;
    this.#sessions.set(session.id, new SessionDetector(session, this.#context));
  }

  #emit(e: DetectionEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(e);
      } catch (error) {
        console.error("lazyshell: detection listener failed:", error);
      }
    }
  }
}
