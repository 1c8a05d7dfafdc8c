/**
 * One lasting control connection (docs/control-api.md, "The wire") over any
 * byte stream — here ssh's stdio to a `lazyshell bridge control` on another
 * host: requests carry ids, replies are matched by id, several may be in
 * flight. Bounded: at most MAX_PENDING requests wait for a reply (more are
 * refused at once), each with its own deadline. Once the stream ends, a line
 * is not a reply, or a request times out, the link is over: every pending
 * request fails with the same one-line reason, `closed` resolves with it.
 */

import { UserError } from "../errors.ts";
import { CONTROL_LINE_LIMIT, encodeLine, readLines, writeAll } from "../ipc/jsonl.ts";
import type { ControlResponse } from "../ipc/protocol.ts";
import type { Duplex } from "../ipc/duplex.ts";
import { readResponse } from "../ctl/client.ts";

export const MAX_PENDING = 8;

interface Pending {
  readonly resolve: (r: ControlResponse) => void;
  readonly reject: (e: Error) => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

export class ControlLink {
  readonly #conn: Duplex;
  readonly #pending = new Map<number, Pending>();
  readonly #closed = Promise.withResolvers<string>();
  #next = 1;
  #over: string | null = null;

  constructor(conn: Duplex) {
    this.#conn = conn;
    void this.#read();
  }

  /** Resolves with why the link ended (once it did). */
  get closed(): Promise<string> {
    return this.#closed.promise;
  }

  get over(): boolean {
    return this.#over !== null;
  }

  /** One request; rejects (UserError) when the link is or goes down, or no reply within `ms`. */
  request(verb: string, args: Record<string, unknown>, ms: number): Promise<ControlResponse> {
    if (this.#over !== null) return Promise.reject(new UserError(this.#over));
    if (this.#pending.size >= MAX_PENDING) {
      return Promise.reject(new UserError(`${MAX_PENDING} requests already wait for a reply`));
    }
    const id = this.#next++;
    const { promise, resolve, reject } = Promise.withResolvers<ControlResponse>();
    const timer = setTimeout(() => this.close(`no reply to ${verb} within ${ms / 1000} s`), ms);
    this.#pending.set(id, { resolve, reject, timer });
    writeAll(this.#conn, encodeLine({ id, verb, args })).catch(() =>
      this.close("the connection closed")
    );
    return promise;
  }

  /** Ends the link (and the stream); pending requests fail with `why`. */
  close(why = "closed"): void {
    if (this.#over !== null) return;
    this.#over = why;
    for (const p of this.#pending.values()) {
      clearTimeout(p.timer);
      p.reject(new UserError(why));
    }
    this.#pending.clear();
    try {
      this.#conn.close();
    } catch { /* closed */ }
    this.#closed.resolve(why);
  }

  async #read(): Promise<void> {
    let why = "the connection closed";
    try {
      for await (const item of readLines(this.#conn, CONTROL_LINE_LIMIT)) {
        if (item.type !== "line") {
          why = "a reply over the line limit";
          break;
        }
        if (item.text.trim() === "") continue; // a liveness probe
        const response = readResponse(item.text);
        if (response.id === null) {
          why = response.ok ? "a reply without an id" : response.error;
          break;
        }
        const p = this.#pending.get(response.id);
        if (!p) continue; // its request timed out: the link is over anyway
        this.#pending.delete(response.id);
        clearTimeout(p.timer);
        p.resolve(response);
      }
    } catch (error) {
      why = error instanceof Error ? error.message : String(error);
    }
    this.close(why);
  }
}
