/**
 * Per-session hook sockets (H1): `session-N.sock` (0600) in this instance's
 * runtime directory, opened before the session's child starts and removed
 * when the session is removed or lazyshell exits. Each valid message is
 * interpreted (hook_mapping.ts) and handed to the sink — DetectionHub.hook()
 * in the app — and acknowledged, so sequential hooks apply in order.
 *
 * A bad peer is isolated: a non-JSON or invalid line, or a line over the
 * limit, gets an error reply and its connection closed; a silent one is
 * dropped after an idle timeout. A bug while applying a message is that
 * connection's failure (util/guard.ts): logged with its stack, answered
 * with an error, the connection closed; the session and its next hooks go
 * on. Must not import tui/ or runtime/.
 */

import { ProtocolError } from "../errors.ts";
import { encodeLine, HOOK_LINE_LIMIT, readLines, writeAll } from "./jsonl.ts";
import { type HookEvent, HookInterpreter } from "./hook_mapping.ts";
import { type ConversationEvidence, conversationOf } from "./conversation.ts";
import { parseHookMessage, PROTOCOL_VERSION } from "./protocol.ts";
import { listenPrivateSync } from "./runtime_dir.ts";
import { fault } from "../util/guard.ts";
import { faults } from "../util/fault_injection.ts";

export interface HookSink {
  hook(id: string, event: HookEvent): void;
  /**
   * Why the process connected to session `id`'s socket may not speak for
   * it (it belongs to another session: src/ipc/peer.ts), or null. Asked
   * once a connection, before its first message is applied.
   */
  refuseSender?(id: string, path: string): string | null;
  /** The agent's conversation id, from a message that was applied (src/ipc/conversation.ts). */
  conversation?(id: string, conversation: ConversationEvidence): void;
}

/** What a failure while applying a hook message does to its connection (util/guard.ts). */
const CLOSED = "answered with an error, connection closed";

/** A connection that sends no complete line for this long is closed. */
const IDLE_MS = 10_000;

interface Endpoint {
  readonly listener: Deno.UnixListener;
  readonly interpreter: HookInterpreter;
  readonly loop: Promise<void>;
}

export class HookServer implements AsyncDisposable {
  readonly dir: string;
  readonly #sink: HookSink;
  readonly #endpoints = new Map<string, Endpoint>();
  readonly #conns = new Set<Deno.UnixConn>();
  readonly #handlers = new Set<Promise<void>>();

  constructor(dir: string, sink: HookSink) {
    this.dir = dir;
    this.#sink = sink;
  }

  pathFor(id: string): string {
    return `${this.dir}/${id}.sock`;
  }

  /** Listens for session `id` (synchronously: before its child starts). */
  open(id: string): string {
    const path = this.pathFor(id);
    if (this.#endpoints.has(id)) return path;
    const listener = listenPrivateSync(path);
    const interpreter = new HookInterpreter();
    const loop = this.#accept(id, listener, interpreter);
    this.#endpoints.set(id, { listener, interpreter, loop });
    return path;
  }

  /** Stops listening for `id`; the socket file is removed. */
  async close(id: string): Promise<void> {
    const endpoint = this.#endpoints.get(id);
    if (!endpoint) return;
    this.#endpoints.delete(id);
    try {
      endpoint.listener.close();
    } catch { /* already closed */ }
    await endpoint.loop;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await Promise.all([...this.#endpoints.keys()].map((id) => this.close(id)));
    for (const conn of this.#conns) closeQuietly(conn);
    await Promise.all([...this.#handlers]);
  }

  async #accept(id: string, listener: Deno.UnixListener, interpreter: HookInterpreter) {
    try {
      for await (const conn of listener) {
        this.#conns.add(conn);
        const handler = this.#serve(id, conn, interpreter).finally(() => {
          this.#conns.delete(conn);
          closeQuietly(conn);
          this.#handlers.delete(handler);
        });
        this.#handlers.add(handler);
      }
    } catch { /* listener closed */ }
  }

  async #serve(id: string, conn: Deno.UnixConn, interpreter: HookInterpreter): Promise<void> {
    let timer = setTimeout(() => closeQuietly(conn), IDLE_MS);
    let checked = false;
    try {
      for await (const item of readLines(conn, HOOK_LINE_LIMIT)) {
        clearTimeout(timer);
        if (item.type === "oversize") {
          await reply(conn, { error: `Line over ${HOOK_LINE_LIMIT} bytes` });
          return;
        }
        if (!item.text.trim()) continue;
        if (!checked) {
          checked = true;
          const refused = this.#sink.refuseSender?.(id, this.pathFor(id)) ?? null;
          if (refused !== null) return await reply(conn, { error: refused });
        }
        try {
          const message = parseHookMessage(item.text);
          if (faults) faults.hit("hook", id);
          const event = interpreter.interpret(message);
          if (event) {
            this.#sink.hook(id, event);
            const conversation = conversationOf(message);
            if (conversation) this.#sink.conversation?.(id, conversation);
          }
          await reply(conn, null);
        } catch (error) {
          if (error instanceof ProtocolError) return await reply(conn, { error: error.message });
          fault({ name: `hook connection of ${id}`, fault: () => CLOSED }, "a hook message", error);
          return await reply(conn, { error: "Hook not applied (internal error)" });
        }
        timer = setTimeout(() => closeQuietly(conn), IDLE_MS);
      }
    } catch {
      /* peer went away */
    } finally {
      clearTimeout(timer);
    }
  }
}

async function reply(conn: Deno.UnixConn, error: { error: string } | null): Promise<void> {
  const body = error
    ? { v: PROTOCOL_VERSION, type: "error", error: error.error }
    : { v: PROTOCOL_VERSION, type: "ack" };
  try {
    await writeAll(conn, encodeLine(body));
  } catch { /* peer went away */ }
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch { /* already closed */ }
}
