/**
 * The scripted mock model server: HTTP on 127.0.0.1 only (random port),
 * speaking the four APIs of apis.ts, with the scripts of scripts.ts paced
 * in real time (scaled by `speed`, so tests can run a 4 s turn in 40 ms).
 *
 * Invariant: it never binds anything but the loopback address, and closing
 * it ends every stream still running (an interrupted CLI may not hang up).
 */

import { anthropic, type ApiAdapter, chat, gemini, responses } from "./apis.ts";
import { chunksOf, decide, plan, type ScriptName, toolCallFor } from "./scripts.ts";
import { pause } from "../../../src/util/async.ts";

export type MockEventType =
  | "request"
  | "stream_start"
  | "tool_call_sent"
  | "turn_end"
  | "client_aborted"
  | "unhandled"
  | "error";

export interface MockEvent {
  readonly type: MockEventType;
  readonly id: number;
  readonly api?: string;
  readonly kind?: "main" | "aux";
  readonly script?: ScriptName;
  readonly note?: string;
}

export interface MockRequest {
  readonly id: number;
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  /** Parsed JSON, or the raw text when it is not JSON. */
  readonly body: unknown;
}

export interface MockOptions {
  readonly onEvent?: (event: MockEvent) => void;
  readonly onRequest?: (request: MockRequest) => void;
  /** Multiplies every streaming duration (1 = real time). */
  readonly speed?: number;
}

export interface MockServer extends AsyncDisposable {
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  close(): Promise<void>;
}

const encoder = new TextEncoder();
export const LOOPBACK = "127.0.0.1";

export async function startMockServer(options: MockOptions = {}): Promise<MockServer> {
  const onEvent = options.onEvent ?? (() => {});
  const speed = options.speed ?? 1;
  const stop = new AbortController();
  let seq = 0;

  const handler = async (req: Request): Promise<Response> => {
    const id = ++seq;
    const url = new URL(req.url);
    const path = url.pathname;
    const text = req.method === "POST" ? await req.text() : "";
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    options.onRequest?.({
      id,
      method: req.method,
      url: url.pathname + url.search,
      headers: Object.fromEntries(req.headers),
      body,
    });
    try {
      return route(id, req, path, body);
    } catch (error) {
      onEvent({ type: "error", id, note: String(error) });
      return json({ error: { type: "mock_error", message: String(error) } }, 500);
    }
  };

  function route(id: number, req: Request, path: string, body: unknown): Response {
    const post = req.method === "POST";
    if (post && path.endsWith("/messages/count_tokens")) return json({ input_tokens: 1000 });
    if (post && path.endsWith("/messages")) return reply(anthropic, id, path, body);
    if (post && path.endsWith("/responses")) return reply(responses, id, path, body);
    if (post && path.endsWith("/chat/completions")) return reply(chat, id, path, body);
    if (post && /:(stream)?generateContent$/i.test(path)) {
      return reply(gemini, id, path, body);
    }
    if (post && path.endsWith(":countTokens")) return json({ totalTokens: 1000 });
    if (req.method === "GET" && path.endsWith("/models")) {
      return json({
        object: "list",
        data: [{ id: "mock-model", object: "model", owned_by: "lab" }],
        models: [],
      });
    }
    onEvent({ type: "unhandled", id, note: `${req.method} ${path}` });
    return json({ error: { type: "not_found", message: "mock: not found" } }, 404);
  }

  function reply(
    adapter: ApiAdapter,
    id: number,
    path: string,
    body: unknown,
  ): Response {
    const view = adapter.view(body, path);
    // Gemini's non-streamed calls are side questions (routing, next speaker).
    const d = adapter.api === "gemini" && !view.stream
      ? { kind: "aux" as const, script: "aux" as const }
      : decide(view);
    const p = plan(d.script);
    const api = adapter.api;
    onEvent({
      type: "request",
      id,
      api,
      kind: d.kind,
      script: d.script,
      note: `stream=${view.stream} tools=${view.tools.map((t) => t.name).join(",")}`,
    });
    const model = typeof (body as { model?: unknown })?.model === "string"
      ? (body as { model: string }).model
      : "mock-model";
    const ctx = { id, model, text: p.text };
    if (!view.stream) return json(adapter.json(ctx));
    const framer = adapter.framer(ctx);
    const call = toolCallFor(p, view.tools);
    const cancelled = new AbortController();
    // Not req.signal: Deno aborts it on a normal end too; a hang-up cancels the stream.
    const signal = AbortSignal.any([stop.signal, cancelled.signal]);
    const main = d.kind === "main";
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        const send = (frame: string) => controller.enqueue(encoder.encode(frame));
        try {
          framer.open().forEach(send);
          if (main) onEvent({ type: "stream_start", id, api, script: d.script });
          const parts = chunksOf(p.text);
          const gap = parts.length ? (p.totalMs * speed) / parts.length : 0;
          for (const part of parts) {
            if (signal.aborted) break;
            send(framer.delta(part));
            if (gap > 0) await pause(gap, signal);
          }
          if (signal.aborted) {
            onEvent({ type: "client_aborted", id, api, script: d.script });
          } else {
            framer.close(call).forEach(send);
            if (main) {
              const type = call ? "tool_call_sent" : "turn_end";
              onEvent({ type, id, api, script: d.script });
            }
          }
          controller.close();
        } catch {
          // The client hung up while we were writing: nothing left to do.
          if (main && !signal.aborted) {
            onEvent({ type: "client_aborted", id, api, script: d.script });
          }
        }
      },
      cancel() {
        cancelled.abort();
      },
    });
    return new Response(stream, {
      headers: {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        connection: "keep-alive",
      },
    });
  }

  const listening = Promise.withResolvers<Deno.NetAddr>();
  const server = Deno.serve({
    hostname: LOOPBACK,
    port: 0,
    signal: stop.signal,
    onListen: (addr) => listening.resolve(addr as Deno.NetAddr),
  }, handler);
  const addr = await listening.promise;
  let closed: Promise<void> | null = null;
  const close = () => {
    if (!closed) {
      stop.abort();
      closed = server.finished;
    }
    return closed;
  };
  return {
    port: addr.port,
    url: `http://${LOOPBACK}:${addr.port}`,
    close,
    [Symbol.asyncDispose]: close,
  };
}

function json(data: unknown, status = 200): Response {
  return new Response(JSON.stringify(data), {
    status,
    headers: { "content-type": "application/json" },
  });
}
