/** Helpers for tests of detection: a hub whose events a test reads and waits on. */

import type { SessionStore } from "../session/store.ts";
import type { Catalog } from "./catalog.ts";
import { type DetectionEvent, DetectionHub, type DetectionOptions } from "./detection.ts";

/** A DetectionHub with its events kept (`events`) and heard (`on`); disposing it ends the hub. */
export interface WatchedHub extends Disposable {
  readonly hub: DetectionHub;
  readonly events: DetectionEvent[];
  on(listener: (e: DetectionEvent) => void): Disposable;
}

export function watchedHub(
  store: SessionStore,
  catalog: Catalog,
  options: DetectionOptions = {},
): WatchedHub {
  const events: DetectionEvent[] = [];
  const listeners = new Set<(e: DetectionEvent) => void>();
  const hub = new DetectionHub(store, catalog, (e) => {
    events.push(e);
    for (const listener of listeners) listener(e);
  }, options);
  return {
    hub,
    events,
    on(listener) {
      listeners.add(listener);
      return { [Symbol.dispose]: () => listeners.delete(listener) };
    },
    [Symbol.dispose]: () => hub[Symbol.dispose](),
  };
}
