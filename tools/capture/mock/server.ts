/**
 * The scripted mock model server: HTTP on 127.0.0.1 only (random port),
 * speaking the four APIs of apis.ts, with the scripts of scripts.ts paced
 * in real time (scaled by `speed`, so tests can run a 4 s turn in 40 ms).
 *
 * Invariant: it never binds anything but the loopback address, and closing
 * it ends every stream still running (an interrupted CLI may not hang up).
 */

import { anthropic, type ApiAdapter, chat, gemini, type ReplyContext, responses } from "./apis.ts";
import { chunksOf, decide, plan, type ScriptName, TEXT_LONG, toolCallFor } from "./scripts.ts";
import {
  type ErrorReply,
  errorReply,
  type FailureMode,
  failureOf,
  FlakyCounter,
  LimitWindows,
  usageLimit,
} from "./failures.ts";
import { pause } from "../../../src/util/async.ts";

export type MockEventType =
  | "request"
  | "stream_start"
  | "tool_call_sent"
  | "turn_end"
  | "client_aborted"
  /** A failure on purpose (failures.ts): an HTTP error, or `cut` for a dropped stream. */
  | "failed"
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
  const flaky = new FlakyCounter();
  const limits = new LimitWindows();

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
    const failure = failing(failureOf(view.lastUserText), d.kind, view.lastUserText);
    const isLimit = failure === "limit" || failure === "limit-week";
    const limitReset = isLimit ? limits.resetOf(view.lastUserText, Date.now()) : null;
    if (failure !== null && failure !== "cut" && (!isLimit || limitReset !== null)) {
      const e: ErrorReply = limitReset !== null
        ? usageLimit(api, limitReset, failure === "limit-week")
        : errorReply(api, failure)!;
      // A usage limit's reset instant goes into the capture's truth (docs/limits.md).
      const reset = e.headers["anthropic-ratelimit-unified-reset"] ??
        (e.body as { error?: { resets_at?: number } }).error?.resets_at;
      const note = `${failure}: HTTP ${e.status}` + (reset ? ` resets_at=${reset}` : "");
      onEvent({ type: "failed", id, api, kind: d.kind, note });
      return json(e.body, e.status, e.headers);
    }
    if (failure === "cut") return cut(adapter, id, ctx, d.kind, view.stream);
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
    return new Response(stream, { headers: SSE_HEADERS });
  }

  /**
   * Whether this request fails, and how: every request of a failing turn
   * (a broken key fails side requests too), but a dropped stream needs a
   * stream, and a flaky turn fails only its first main requests.
   */
  function failing(
    mode: FailureMode | null,
    kind: "main" | "aux",
    turnText: string,
  ): FailureMode | null {
    if (mode === "flaky") return kind === "main" && flaky.fails(turnText) ? mode : null;
    return mode;
  }

  /**
   * Sends the start of a long answer — SSE frames, or half of the JSON body
   * of a non-streamed reply (Claude Code falls back to one) — then drops the
   * connection mid-answer.
   */
  function cut(
    adapter: ApiAdapter,
    id: number,
    ctx: ReplyContext,
    kind: "main" | "aux",
    streamed: boolean,
  ) {
    const framer = adapter.framer({ ...ctx, text: TEXT_LONG });
    const body = JSON.stringify(adapter.json({ ...ctx, text: TEXT_LONG }));
    const parts = streamed
      ? chunksOf(TEXT_LONG).slice(0, CUT_AFTER_PARTS).map((part) => framer.delta(part))
      : [body.slice(0, Math.floor(body.length / 2))];
    const signal = stop.signal;
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        const send = (frame: string) => controller.enqueue(encoder.encode(frame));
        try {
          if (streamed) framer.open().forEach(send);
          for (const part of parts) {
            if (signal.aborted) break;
            send(part);
            await pause(CUT_GAP_MS * speed, signal);
          }
          onEvent({ type: "failed", id, api: adapter.api, kind, note: "cut: stream dropped" });
          controller.error(new Error("mock: connection cut mid-answer"));
        } catch {
          // the client hung up first
        }
      },
    });
    const headers = streamed ? SSE_HEADERS : { "content-type": "application/json" };
    return new Response(stream, { headers });
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

const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  connection: "keep-alive",
};

/** A dropped stream sends this many pieces of text first, one every CUT_GAP_MS. */
const CUT_AFTER_PARTS = 12;
const CUT_GAP_MS = 250;

function json(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(data), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}
