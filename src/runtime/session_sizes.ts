/**
 * Which size each session's PTY takes from the clients that show it
 * (config `window_size`, src/runtime/window_size.ts): under `latest` the
 * client that last typed into or focused a session owns its size (tmux's
 * rule); under `smallest` and `largest` every pane showing it counts.
 */

import type { WindowSize } from "../config/config.ts";
import { policySize, type Size } from "./window_size.ts";

/** The sessions this sizes: found by id, or all of them. */
export interface SizedSessions {
  get(id: string): { resize(cols: number, rows: number): void } | undefined;
  list(): readonly { readonly id: string; resize(cols: number, rows: number): void }[];
}

export class SessionSizes {
  readonly #sessions: SizedSessions;
  readonly #policy: () => WindowSize;
  /** Which client a session's PTY size follows (`latest`). */
  readonly #owners = new Map<string, string>();
  /** What each client shows: session id → the pane's size. */
  readonly #shown = new Map<string, ReadonlyMap<string, Size>>();
  /** Clients in the order they last claimed a session, the latest last (`latest`). */
  readonly #recent: string[] = [];

  constructor(sessions: SizedSessions, policy: () => WindowSize) {
    this.#sessions = sessions;
    this.#policy = policy;
  }

  /**
   * A client left: the sessions it sized or showed are sized again without
   * it. Under `latest`, a session it owned goes to the client active last
   * among those that show it, at that client's pane size (tmux's `latest`
   * after a detach: the remaining clients no longer show a window of a
   * screen sized for a terminal that is gone); shown by none, it keeps its
   * size and follows the next resize.
   */
  forgetClient(client: string): void {
    const freed: string[] = [];
    for (const [id, owner] of this.#owners) {
      if (owner === client) {
        this.#owners.delete(id);
        freed.push(id);
      }
    }
    const at = this.#recent.indexOf(client);
    if (at >= 0) this.#recent.splice(at, 1);
    const shown = this.#shown.get(client);
    this.#shown.delete(client);
    for (const id of shown?.keys() ?? []) this.#apply(id);
    if (this.#policy() === "latest") { for (const id of freed) this.#handOver(id); }
  }

  /** Session `id` follows the client active last among those that show it, if any. */
  #handOver(id: string): void {
    let next: { client: string; size: Size; rank: number } | null = null;
    for (const [client, sessions] of this.#shown) {
      const size = sessions.get(id);
      const rank = this.#recent.indexOf(client);
      if (size && (next === null || rank > next.rank)) next = { client, size, rank };
    }
    if (!next) return;
    this.#owners.set(id, next.client);
    this.#sessions.get(id)?.resize(next.size.cols, next.size.rows);
  }

  /** A session ended: nobody owns its size. */
  forgetSession(id: string): void {
    this.#owners.delete(id);
  }

  /** The policy changed: every session is sized anew (`latest`: from the next claim on). */
  policyChanged(): void {
    this.#owners.clear();
    for (const session of this.#sessions.list()) this.#apply(session.id);
  }

  /** The session's PTY takes this client's pane size from now on (`latest` only). */
  claim(id: string, client: string, cols: number, rows: number): void {
    if (this.#policy() !== "latest") return;
    this.#owners.set(id, client);
    const at = this.#recent.indexOf(client);
    if (at >= 0) this.#recent.splice(at, 1);
    this.#recent.push(client);
    this.#sessions.get(id)?.resize(cols, rows);
  }

  /** The sessions a client shows now and the size of the pane each is shown in. */
  show(client: string, sessions: ReadonlyMap<string, Size>): void {
    const before = this.#shown.get(client);
    this.#shown.set(client, sessions);
    for (const id of new Set([...(before?.keys() ?? []), ...sessions.keys()])) this.#apply(id);
  }

  /** A client's pane changed size: the sessions that follow it (or nobody yet) follow (`latest`). */
  resizeFor(client: string, cols: number, rows: number, tiles?: ReadonlyMap<string, Size>): void {
    if (this.#policy() !== "latest") return;
    for (const session of this.#sessions.list()) {
      const owner = this.#owners.get(session.id);
      const size = tiles?.get(session.id) ?? { cols, rows };
      if (owner === undefined || owner === client) session.resize(size.cols, size.rows);
    }
  }

  /** Session `id` takes the size the policy gives it from the panes that show it, if any. */
  #apply(id: string): void {
    const sizes: Size[] = [];
    for (const shown of this.#shown.values()) {
      const size = shown.get(id);
      if (size) sizes.push(size);
    }
    const size = policySize(this.#policy(), sizes);
    if (size) this.#sessions.get(id)?.resize(size.cols, size.rows);
  }
}
