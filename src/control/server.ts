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
 * verb gets an error reply and the connection goes on; half-open and idle
 * connections cost nothing; past MAX_CONNECTIONS new ones are closed.
 */

import { messageOf, ProtocolError, UserError } from "../errors.ts";
import { CONTROL_LINE_LIMIT, encodeLine, readLines, writeAll } from "../ipc/jsonl.ts";
import {
  type ControlRequest,
  type ControlResponse,
  parseControlRequest,
  salvageId,
} from "../ipc/protocol.ts";
import { listenPrivate } from "../ipc/runtime_dir.ts";
import { holdFloods } from "../session/flood_budget.ts";
import type { ControlHost } from "./host.ts";
import { checkArgs } from "./verb.ts";
import { findVerb, VERBS } from "./verbs/mod.ts";

export const MAX_CONNECTIONS = 256;

export class ControlServer implements AsyncDisposable {
  readonly path: string;
  readonly #host: ControlHost;
  readonly #listener: Deno.UnixListener;
  readonly #abort = new AbortController();
  readonly #conns = new Set<Deno.UnixConn>();
  readonly #handlers = new Set<Promise<void>>();
  readonly #loop: Promise<void>;
  /** Internal errors go here (serve: stderr); never to the client in full. */
  readonly #log: (line: string) => void;

  private constructor(
    path: string,
    listener: Deno.UnixListener,
    host: ControlHost,
    log: (line: string) => void,
  ) {
    this.path = path;
    this.#listener = listener;
    this.#host = host;
    this.#log = log;
    this.#loop = this.#accept();
  }

  static async listen(
    path: string,
    host: ControlHost,
    log: (line: string) => void = () => {},
  ): Promise<ControlServer> {
    return new ControlServer(path, await listenPrivate(path), host, log);
  }

  /** Answers one request (also used in-process by tests and the TUI's palette). */
  async handle(
    request: ControlRequest,
    replied: Promise<void> = Promise.resolve(),
  ): Promise<ControlResponse> {
    const verb = findVerb(request.verb);
    if (!verb) {
      return {
        id: request.id,
        ok: false,
        error: `Unknown verb: ${request.verb} (expected ${VERBS.map((v) => v.name).join(", ")})`,
      };
    }
    try {
      const args = checkArgs(verb, request.args);
      const result = await verb.run(
        { host: this.#host, signal: this.#abort.signal, replied },
        args,
      );
      return { id: request.id, ok: true, result: result ?? null };
    } catch (error) {
      if (error instanceof UserError || error instanceof ProtocolError) {
        return { id: request.id, ok: false, error: error.message };
      }
      this.#log(`control: ${verb.name} failed: ${messageOf(error)}`);
      return { id: request.id, ok: false, error: `Internal error: ${messageOf(error)}` };
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.#abort.abort();
    try {
      this.#listener.close();
    } catch { /* already closed */ }
    await this.#loop;
    for (const conn of this.#conns) closeQuietly(conn);
    await Promise.all([...this.#handlers]);
  }

  async #accept(): Promise<void> {
    try {
      for await (const conn of this.#listener) {
        if (this.#conns.size >= MAX_CONNECTIONS) {
          closeQuietly(conn);
          continue;
        }
        this.#conns.add(conn);
        const handler = this.#serve(conn).finally(() => {
          this.#conns.delete(conn);
          closeQuietly(conn);
          this.#handlers.delete(handler);
        });
        this.#handlers.add(handler);
      }
    } catch { /* listener closed */ }
  }

  async #serve(conn: Deno.UnixConn): Promise<void> {
    let writes = Promise.resolve();
    const send = (
      response: ControlResponse,
    ) => (writes = writes.then(() => writeAll(conn, encodeLine(response))).catch(() => {}));
    const pending = new Set<Promise<void>>();
    try {
      for await (const item of readLines(conn, CONTROL_LINE_LIMIT)) {
        if (item.type === "overflow") {
          send({ id: null, ok: false, error: `Line over ${item.limit} bytes (dropped)` });
          continue;
        }
        if (!item.line.trim()) continue;
        let request: ControlRequest;
        try {
          request = parseControlRequest(item.line);
        } catch (error) {
          send({ id: salvageId(item.line), ok: false, error: messageOf(error) });
          continue;
        }
        const written = Promise.withResolvers<void>();
        // Answered ahead of floods: they pause until the reply is out (HOLD_MS at most).
        const release = holdFloods();
        const job: Promise<void> = this.handle(request, written.promise)
          .then((response) => send(response).then(written.resolve))
          .finally(() => {
            release();
            pending.delete(job);
          });
        pending.add(job);
      }
    } catch { /* peer went away or we are closing */ }
    await Promise.all([...pending]);
    await writes;
  }
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch { /* already closed */ }
}
