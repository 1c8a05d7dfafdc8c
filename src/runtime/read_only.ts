/**
 * A Runtime that is read and never acted on: what a rehearsed attach draws
 * with (src/server/rehearsal.ts). Its config, state, sessions and views are
 * the runtime's own (the sessions to look up and read, not to create, rename
 * or kill); a listener given to it is never called (its disposer does
 * nothing); every other member is a method that does nothing and returns
 * undefined, so whatever a client's TUI tells the runtime — the sessions it
 * shows and at what size, its focus, a pattern to arm — the runtime never
 * hears of it, and a member added later is inert until it is named here.
 * A session's own handle (from `sessions.get`) is the real one: a rehearsal
 * types nothing, so nothing writes to it.
 */

import type { Runtime } from "./runtime.ts";

/** Read as they are (methods bound to the runtime). */
const READS: ReadonlySet<PropertyKey> = new Set([
  "config",
  "loaded",
  "catalog",
  "env",
  "state",
  "view",
  "inputBox",
  "declaredWatches",
  "fallbackCommand",
]);

/** Listeners: taken and never called. */
const LISTENS: ReadonlySet<PropertyKey> = new Set([
  "subscribe",
  "onOutput",
  "onNotified",
  "onReconfigure",
]);

/** The session store's lookups. */
const SESSION_READS: ReadonlySet<PropertyKey> = new Set([
  "cwd",
  "shell",
  "list",
  "get",
  "find",
  "resolve",
  "inGroup",
]);

const inert: Disposable = { [Symbol.dispose]() {} };

/** `target` with only `reads` readable, `listens` inert and `fixed` members given as they are. */
function readOnly<T extends object>(
  target: T,
  reads: ReadonlySet<PropertyKey>,
  listens: ReadonlySet<PropertyKey> = new Set(),
  fixed: ReadonlyMap<PropertyKey, unknown> = new Map(),
): T {
  return new Proxy(target, {
    get(target, key) {
      if (fixed.has(key)) return fixed.get(key);
      if (reads.has(key)) {
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === "function" ? value.bind(target) : value;
      }
      if (listens.has(key)) return () => inert;
      return () => undefined;
    },
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
}

export function readOnlyRuntime(runtime: Runtime): Runtime {
  const sessions = readOnly(runtime.sessions, SESSION_READS);
  return readOnly(runtime, READS, LISTENS, new Map([["sessions", sessions]]));
}
