/**
 * The control socket (C1–C3): `control.sock` (0600) in this instance's
 * runtime directory, off unless `control.enabled: true`. Its 0600 mode is
 * the whole access control: any process of the user may create sessions,
 * type in them and read their output, secrets included.
 *
 * JSON Lines: `{"id":N,"verb":"list","args":{...}}` →
 * `{"id":N,"ok":true,"result":...}` | `{"id":N,"ok":false,"error":"..."}`.
 * Requests on one connection run concurrently (a `wait` does not hold up
 * the next request) and replies carry the request's id. Bad clients cannot
 * hurt it: a non-JSON or invalid line, a line over the limit or an unknown
 * verb gets an error reply and the connection goes on; what one connection
 * may hold is bounded (connection.ts); past `maxConnections` the longest
 * idle connection is closed to make room, and when none is idle the
 * newcomer gets a one-line refusal (limits.ts, docs/control-api.md).
 */

import { messageOf, ProtocolError, UserError } from "../errors.ts";
import { encodeLine } from "../ipc/jsonl.ts";
import type { ControlRequest, ControlResponse } from "../ipc/protocol.ts";
import { listenPrivate } from "../ipc/runtime_dir.ts";
import { closeQuietly, ControlConnection } from "./connection.ts";
import type { ControlHost } from "./host.ts";
import { CONTROL_LIMITS, type ControlLimits } from "./limits.ts";
import { checkArgs } from "./verb.ts";
import { findVerb, VERBS } from "./verbs/mod.ts";
import { fault } from "../util/guard.ts";
import { faults } from "../util/fault_injection.ts";

export interface ControlServerOptions {
  /** Dropped clients go here (serve: lazyshell.log); internal errors go to crash.log (util/guard.ts). */
  readonly log?: (line: string) => void;
  /** Tests shrink the bounds; everyone else gets CONTROL_LIMITS. */
  readonly limits?: Partial<ControlLimits>;
}

/** What the server holds right now and what its bounds did (tests, tools/abuse). */
export interface ControlStats {
  readonly connections: number;
  readonly inFlight: number;
  readonly queuedBytes: number;
  /** Idle connections closed to make room for a newcomer. */
  readonly evicted: number;
  /** Newcomers refused because no connection was idle. */
  readonly refused: number;
}

/** One log line per kind of crowding per minute, not one per connection. */
const CROWD_LOG_MS = 60_000;

export class ControlServer implements AsyncDisposable {
  readonly path: string;
  readonly #host: ControlHost;
  readonly #listener: Deno.UnixListener;
  readonly #abort = new AbortController();
  readonly #conns = new Set<ControlConnection>();
  readonly #handlers = new Set<Promise<void>>();
  readonly #loop: Promise<void>;
  readonly #log: (line: string) => void;
  readonly #limits: ControlLimits;
  /** `wait` requests pending (limits.maxWaits). */
  #waits = 0;
  #evicted = 0;
  #refused = 0;
  #crowdLogged = -Infinity;

  private constructor(
    path: string,
    listener: Deno.UnixListener,
    host: ControlHost,
    options: ControlServerOptions,
  ) {
    this.path = path;
    this.#listener = listener;
    this.#host = host;
    this.#log = options.log ?? (() => {});
    this.#limits = { ...CONTROL_LIMITS, ...options.limits };
    this.#loop = this.#accept();
  }

  static async listen(
    path: string,
    host: ControlHost,
    options: ControlServerOptions = {},
  ): Promise<ControlServer> {
    return new ControlServer(path, await listenPrivate(path), host, options);
  }

  stats(): ControlStats {
    let inFlight = 0;
    let queuedBytes = 0;
    for (const c of this.#conns) {
      inFlight += c.inFlight;
      queuedBytes += c.queuedBytes;
    }
    return {
      connections: this.#conns.size,
      inFlight,
      queuedBytes,
      evicted: this.#evicted,
      refused: this.#refused,
    };
  }

  /** Answers one request (also used in-process by tests and the TUI's palette). */
  handle(
    request: ControlRequest,
    replied: Promise<void> = Promise.resolve(),
  ): Promise<ControlResponse> {
    return this.#answer(request, this.#abort.signal, replied);
  }

  /**
   * `signal` aborts when the server closes or the asking client went away;
   * `replied` resolves once the reply is written (verbs that bound their
   * replies in flight wait on it).
   */
  async #answer(
    request: ControlRequest,
    signal: AbortSignal,
    replied: Promise<void>,
  ): Promise<ControlResponse> {
    const verb = findVerb(request.verb);
    if (!verb) {
      return {
        id: request.id,
        ok: false,
        error: `Unknown verb: ${request.verb} (expected ${VERBS.map((v) => v.name).join(", ")})`,
      };
    }
    const waits = verb.name === "wait" || verb.name === "watch";
    if (waits && this.#waits >= this.#limits.maxWaits) {
      this.#crowded(`${this.#limits.maxWaits} waits pending: refusing more`);
      return {
        id: request.id,
        ok: false,
        error: `Too many pending waits (${this.#limits.maxWaits}): try again later`,
      };
    }
    if (waits) this.#waits++;
    try {
      const args = checkArgs(verb, request.args);
      if (faults) faults.hit("verb", verb.name);
      const result = await verb.run({ host: this.#host, signal, replied }, args);
      return { id: request.id, ok: true, result: result ?? null };
    } catch (error) {
      if (error instanceof UserError || error instanceof ProtocolError) {
        return { id: request.id, ok: false, error: error.message };
      }
      // A bug: the request is its owner, answered with the error (util/guard.ts).
      fault(
        { name: `control ${verb.name}`, fault: () => "answered with the error" },
        "request",
        error,
      );
      return { id: request.id, ok: false, error: `Internal error: ${messageOf(error)}` };
    } finally {
      if (waits) this.#waits--;
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.#abort.abort();
    try {
      this.#listener.close();
    } catch { /* already closed */ }
    await this.#loop;
    for (const connection of this.#conns) connection.close();
    await Promise.all([...this.#handlers]);
  }

  async #accept(): Promise<void> {
    const { maxConnections } = this.#limits;
    const server = this.#abort.signal;
    try {
      for await (const conn of this.#listener) {
        if (this.#conns.size >= maxConnections && !this.#makeRoom()) {
          this.#refused++;
          this.#crowded(`${maxConnections} connections open, none idle: refusing newcomers`);
          this.#track(refuse(
            conn,
            `Too many control connections (${maxConnections} open, none idle): try again later`,
          ));
          continue;
        }
        const connection = new ControlConnection(
          conn,
          this.#limits,
          (request, client, replied) =>
            this.#answer(request, AbortSignal.any([server, client]), replied),
          this.#log,
        );
        this.#conns.add(connection);
        this.#track(connection.serve().finally(() => this.#conns.delete(connection)));
      }
    } catch { /* listener closed */ }
  }

  /**
   * Closes the connection idle the longest (nothing in flight, idle at least
   * evictIdleMs: a client that just connected gets to send its request);
   * false when there is none.
   */
  #makeRoom(): boolean {
    let idlest: ControlConnection | null = null;
    for (const c of this.#conns) {
      if (!c.busy && (idlest === null || c.lastActive < idlest.lastActive)) idlest = c;
    }
    if (idlest === null || Date.now() - idlest.lastActive < this.#limits.evictIdleMs) return false;
    this.#conns.delete(idlest);
    this.#evicted++;
    this.#crowded(`${this.#limits.maxConnections} connections open: closing the longest idle`);
    const idle = Math.round((Date.now() - idlest.lastActive) / 1000);
    idlest.close(
      `Closed after ${idle} s idle to make room: ${this.#limits.maxConnections} connections open`,
    );
    return true;
  }

  #crowded(what: string): void {
    const now = Date.now();
    if (now - this.#crowdLogged < CROWD_LOG_MS) return;
    this.#crowdLogged = now;
    this.#log(`control: ${what}`);
  }

  #track(work: Promise<void>): void {
    const handler: Promise<void> = work.catch((error) => fault(CONNECTION, "connection", error))
      .finally(() => this.#handlers.delete(handler));
    this.#handlers.add(handler);
  }
}

/** A connection's handler failed (a bug): it is closed; the others go on. */
const CONNECTION = { name: "control connection" };

/** One error line to a connection we will not serve, then closed (bounded wait). */
async function refuse(conn: Deno.UnixConn, error: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      conn.write(encodeLine({ id: null, ok: false, error })),
      new Promise((resolve) => (timer = setTimeout(resolve, 1000))),
    ]);
  } catch {
    /* gone already */
  } finally {
    clearTimeout(timer);
    closeQuietly(conn);
  }
}
