/**
 * A set of listeners, each with its owner: one that throws is its owner's
 * failure (logged to crash.log, src/util/guard.ts), never the caller's, and
 * the others still run (docs/architecture.md, fault isolation).
 */

import { fault, type Owner } from "../util/guard.ts";

export class Listeners<A> {
  readonly #set = new Set<{ readonly call: (arg: A) => void; readonly owner: Owner }>();

  add(call: (arg: A) => void, owner: Owner): Disposable {
    const listener = { call, owner };
    this.#set.add(listener);
    return { [Symbol.dispose]: () => this.#set.delete(listener) };
  }

  /** Drops every listener (the owner is going away). */
  clear(): void {
    this.#set.clear();
  }

  /** Calls each listener with `arg`; `where` names the call in a failure's log line. */
  emit(arg: A, where: string): void {
    for (const listener of this.#set) {
      try {
        listener.call(arg);
      } catch (error) {
        fault(listener.owner, where, error);
      }
    }
  }
}
