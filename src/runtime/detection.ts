/**
 * The DetectionHub (docs/detection.md): one SessionDetector (session_detector.ts) for every
 * session of a SessionStore, each on the hub's clock and scheduler, each emitting into the
 * runtime's reducer through the hub's one sink.
 *
 * Scheduling (D7): screen classification after output settles (trailing
 * debounce `settleMs`, at most `maxWaitMs` after the first unclassified
 * output, coalesced), at once on OSC 133;A and OSC 7501 records, and
 * synchronously through `classifyNow()` before anything types into a
 * session. Identity comes from the PTY's foreground process (S4); rules
 * read only the rows they need (session/screen_view.ts).
 *
 * The hub owns the store subscription (sessions come, are replaced, go) and
 * the detectors; each detector hears its own session's events. `dispose`
 * ends them all.
 */

import type { AgentStatus } from "../model/agent.ts";
import type { DetectionEvent, HookEvent } from "../model/events.ts";
import type { Osc7501Record } from "../detect/osc7501.ts";
import type { Prompt } from "../model/prompt.ts";
import type { Session } from "../session/session.ts";
import type { SessionStore, StoreEvent } from "../session/store.ts";
import { ticker } from "../util/ticker.ts";
import type { Catalog } from "./catalog.ts";
import { type DetectorContext, detectorContext, type DetectorOptions } from "./detector_context.ts";
import { SessionDetector } from "./session_detector.ts";

export type { DetectionEvent, HookEvent } from "../model/events.ts";

/** The process's clock and ticker unless given (tests give a virtual clock's). */
export type DetectionOptions = Partial<DetectorOptions>;

export class DetectionHub implements Disposable {
  #catalog: Catalog;
  readonly #context: DetectorContext;
  #sessions = new Map<string, SessionDetector>();
  #subscription: Disposable;
  #disposed = false;

  constructor(
    store: SessionStore,
    catalog: Catalog,
    emit: (e: DetectionEvent) => void,
    options: DetectionOptions = {},
  ) {
    this.#catalog = catalog;
    this.#context = detectorContext(catalog, emit, {
      ...options,
      now: options.now ?? Date.now,
      scheduler: options.scheduler ?? ticker,
    });
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

  /** A hook event from the hook server (docs/hooks.md); latches the session (D4). */
  hook(id: string, event: HookEvent): void {
    if (!this.#disposed) this.#sessions.get(id)?.hook(event);
  }

  /** A fresh synchronous classification, for callers about to type into a session (D7). */
  classifyNow(id: string): AgentStatus | null {
    const d = this.#sessions.get(id);
    if (!d || this.#disposed) return null;
    return d.classifyNow();
  }

  [Symbol.dispose](): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#subscription[Symbol.dispose]();
    for (const d of this.#sessions.values()) d[Symbol.dispose]();
    this.#sessions.clear();
  }

  #onStore(e: StoreEvent): void {
    if (this.#disposed) return;
    switch (e.type) {
      case "added":
        return this.#track(e.session);
      case "removed":
        return this.#untrack(e.id);
      case "replaced":
        // A new child in the same session: what was known of the old one goes.
        this.#untrack(e.session.id);
        return this.#track(e.session);
      case "session":
      case "changed":
        return;
    }
  }

  #track(session: Session): void {
    if (this.#sessions.has(session.id)) return;
    this.#sessions.set(session.id, new SessionDetector(session, this.#context));
  }

  #untrack(id: string): void {
    this.#sessions.get(id)?.[Symbol.dispose]();
    this.#sessions.delete(id);
  }
}
