/**
 * The four wire APIs the agent CLIs speak, as pure adapters: read a request
 * body into a RequestView, and frame a reply as SSE events. No runtime here;
 * server.ts paces the frames and writes them.
 *
 *   anthropic  POST /v1/messages                    (Claude Code)
 *   responses  POST /v1/responses                   (Codex)
 *   chat       POST /v1/chat/completions            (opencode, Qwen Code)
 *   gemini     POST /v1beta/models/<m>:streamGenerateContent?alt=sse (Gemini CLI)
 */

import { type RequestView, textOf, type ToolCall } from "./scripts.ts";

export type ApiName = "anthropic" | "responses" | "chat" | "gemini";

export interface ReplyContext {
  readonly id: number;
  readonly model: string;
  /** The full text of the reply (for final events that repeat it). */
  readonly text: string;
}

/** SSE frames of one streamed reply. */
export interface Framer {
  open(): string[];
  delta(text: string): string;
  close(call: ToolCall | null): string[];
}

export interface ApiAdapter {
  readonly api: ApiName;
  view(body: unknown, path: string): RequestView;
  framer(ctx: ReplyContext): Framer;
  /** A non-streamed reply (side requests). */
  json(ctx: ReplyContext): unknown;
}

type Json = Record<string, unknown>;
const obj = (x: unknown): Json => (x !== null && typeof x === "object" ? x as Json : {});
const arr = (x: unknown): unknown[] => (Array.isArray(x) ? x : []);
const str = (x: unknown): string => (typeof x === "string" ? x : "");
const keys = (x: unknown): string[] => Object.keys(obj(x));
const last = <T>(xs: readonly T[]): T | undefined => xs[xs.length - 1];
const findLast = <T>(xs: readonly T[], p: (x: T) => boolean): T | undefined =>
  [...xs].reverse().find(p);

/** `event: <type>` + `data: {type, ...}` (Anthropic and Responses style). */
export function namedEvent(type: string, data: Json): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** `data: <json>` only (Chat Completions, Gemini). */
export function dataEvent(data: unknown, eol = "\n"): string {
  return `data: ${typeof data === "string" ? data : JSON.stringify(data)}${eol}${eol}`;
}

const USAGE = {
  input_tokens: 100,
  output_tokens: 50,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};

export const anthropic: ApiAdapter = {
  api: "anthropic",
  view(body) {
    const j = obj(body);
    const msgs = arr(j.messages).map(obj);
    const isToolResult = (m: Json) =>
      m.role === "user" && arr(m.content).some((c) => obj(c).type === "tool_result");
    // Claude Code may follow a tool's result with a `system` message (an
    // "Environment update" after "always allow access to DIR"): still a tool result.
    const lastMsg = last(msgs.filter((m) => m.role !== "system"));
    const lastUser = findLast(msgs, (m) => m.role === "user" && !isToolResult(m));
    const lastAsst = findLast(msgs, (m) => m.role === "assistant");
    const uses = arr(lastAsst?.content).map(obj).filter((c) => c.type === "tool_use");
    return {
      stream: j.stream === true,
      tools: arr(j.tools).map(obj).map((t) => ({
        name: str(t.name),
        params: keys(obj(t.input_schema).properties),
      })),
      lastIsToolResult: lastMsg !== undefined && isToolResult(lastMsg),
      lastUserText: lastUser ? textOf(lastUser.content) : "",
      lastToolName: uses.length ? str(last(uses)?.name) : undefined,
    };
  },
  framer({ id, model }) {
    const ev = namedEvent;
    return {
      open: () => [
        ev("message_start", {
          message: {
            id: `msg_${id}`,
            type: "message",
            role: "assistant",
            model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { ...USAGE, output_tokens: 1 },
          },
        }),
        ev("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
      ],
      delta: (text) => ev("content_block_delta", { index: 0, delta: { type: "text_delta", text } }),
      close(call) {
        const out = [ev("content_block_stop", { index: 0 })];
        if (call) {
          out.push(
            ev("content_block_start", {
              index: 1,
              content_block: {
                type: "tool_use",
                id: `toolu_lab_${id}`,
                name: call.name,
                input: {},
              },
            }),
            ev("content_block_delta", {
              index: 1,
              delta: { type: "input_json_delta", partial_json: JSON.stringify(call.args) },
            }),
            ev("content_block_stop", { index: 1 }),
          );
        }
        out.push(
          ev("message_delta", {
            delta: { stop_reason: call ? "tool_use" : "end_turn", stop_sequence: null },
            usage: { output_tokens: 50 },
          }),
          ev("message_stop", {}),
        );
        return out;
      },
    };
  },
  json: ({ id, model, text }) => ({
    id: `msg_${id}`,
    type: "message",
    role: "assistant",
    model,
    content: [{ type: "text", text }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: USAGE,
  }),
};

/** Codex puts its environment and instructions in user messages: not the user's text. */
const CODEX_CONTEXT = /^<(environment_context|user_instructions|permissions)/;

export const responses: ApiAdapter = {
  api: "responses",
  view(body) {
    const j = obj(body);
    const input = arr(j.input).map(obj);
    const lastUser = findLast(
      input,
      (m) =>
        m.role === "user" && (m.type === "message" || m.type === undefined) &&
        !CODEX_CONTEXT.test(textOf(m.content).trim()),
    );
    const lastFc = findLast(input, (m) => m.type === "function_call");
    return {
      stream: j.stream !== false,
      tools: arr(j.tools).map(obj).map((t) => ({
        name: str(t.name) || str(t.type),
        params: keys(obj(t.parameters).properties),
      })),
      lastIsToolResult: /_output$/.test(str(last(input)?.type)),
      lastUserText: lastUser ? textOf(lastUser.content) : "",
      lastToolName: lastFc ? str(lastFc.name) : undefined,
    };
  },
  framer({ id, model, text }) {
    const ev = namedEvent;
    const base = {
      id: `resp_${id}`,
      object: "response",
      created_at: Math.floor(Date.now() / 1000),
      model,
      status: "in_progress",
      output: [] as unknown[],
    };
    const mid = `msg_${id}`;
    const at = { item_id: mid, output_index: 0, content_index: 0 };
    return {
      open: () => [
        ev("response.created", { response: base }),
        ev("response.in_progress", { response: base }),
        ev("response.output_item.added", {
          output_index: 0,
          item: { id: mid, type: "message", status: "in_progress", role: "assistant", content: [] },
        }),
        ev("response.content_part.added", {
          ...at,
          part: { type: "output_text", text: "", annotations: [] },
        }),
      ],
      delta: (delta) => ev("response.output_text.delta", { ...at, delta }),
      close(call) {
        const part = { type: "output_text", text, annotations: [] };
        const msg = { id: mid, type: "message", status: "completed", role: "assistant" };
        const item = { ...msg, content: [part] };
        const out = [
          ev("response.output_text.done", { ...at, text }),
          ev("response.content_part.done", { ...at, part }),
          ev("response.output_item.done", { output_index: 0, item }),
        ];
        const output: unknown[] = [item];
        if (call) {
          const fc = {
            id: `fc_${id}`,
            type: "function_call",
            status: "completed",
            call_id: `call_lab_${id}`,
            name: call.name,
            arguments: JSON.stringify(call.args),
          };
          out.push(
            ev("response.output_item.added", {
              output_index: 1,
              item: { ...fc, status: "in_progress", arguments: "" },
            }),
            ev("response.function_call_arguments.done", {
              item_id: fc.id,
              output_index: 1,
              arguments: fc.arguments,
            }),
            ev("response.output_item.done", { output_index: 1, item: fc }),
          );
          output.push(fc);
        }
        out.push(ev("response.completed", {
          response: {
            ...base,
            status: "completed",
            output,
            usage: {
              input_tokens: 100,
              input_tokens_details: { cached_tokens: 0 },
              output_tokens: 50,
              output_tokens_details: { reasoning_tokens: 0 },
              total_tokens: 150,
            },
          },
        }));
        return out;
      },
    };
  },
  json: ({ id, model, text }) => ({
    id: `resp_${id}`,
    object: "response",
    model,
    status: "completed",
    output: [{
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text, annotations: [] }],
    }],
  }),
};

const CHAT_USAGE = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };

export const chat: ApiAdapter = {
  api: "chat",
  view(body) {
    const j = obj(body);
    const msgs = arr(j.messages).map(obj);
    const lastUser = findLast(msgs, (m) => m.role === "user");
    const lastAsst = findLast(msgs, (m) => m.role === "assistant" && arr(m.tool_calls).length > 0);
    const lastCall = obj(last(arr(lastAsst?.tool_calls)));
    return {
      stream: j.stream === true,
      tools: arr(j.tools).map(obj).map((t) => {
        const f = obj(t.function ?? t);
        return { name: str(f.name), params: keys(obj(f.parameters).properties) };
      }),
      lastIsToolResult: last(msgs)?.role === "tool",
      lastUserText: lastUser ? textOf(lastUser.content) : "",
      lastToolName: lastAsst ? str(obj(lastCall.function).name) : undefined,
    };
  },
  framer({ id, model }) {
    const created = Math.floor(Date.now() / 1000);
    const cid = `chatcmpl_${id}`;
    const chunk = (delta: Json, finish: string | null = null) =>
      dataEvent({
        id: cid,
        object: "chat.completion.chunk",
        created,
        model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
    return {
      open: () => [chunk({ role: "assistant", content: "" })],
      delta: (content) => chunk({ content }),
      close(call) {
        const out: string[] = [];
        if (call) {
          out.push(chunk({
            tool_calls: [{
              index: 0,
              id: `call_lab_${id}`,
              type: "function",
              function: { name: call.name, arguments: JSON.stringify(call.args) },
            }],
          }));
        }
        out.push(
          chunk({}, call ? "tool_calls" : "stop"),
          dataEvent({
            id: cid,
            object: "chat.completion.chunk",
            created,
            model,
            choices: [],
            usage: CHAT_USAGE,
          }),
          dataEvent("[DONE]"),
        );
        return out;
      },
    };
  },
  json: ({ id, model, text }) => ({
    id: `chatcmpl_${id}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
    usage: CHAT_USAGE,
  }),
};

const GEMINI_USAGE = { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 };

export const gemini: ApiAdapter = {
  api: "gemini",
  view(body, path) {
    const j = obj(body);
    const contents = arr(j.contents).map(obj);
    const isFnResp = (c: Json) => arr(c.parts).some((p) => obj(p).functionResponse !== undefined);
    const partsText = (c: Json) => arr(c.parts).map((p) => str(obj(p).text)).join("\n");
    const lastUser = findLast(contents, (c) => c.role === "user" && !isFnResp(c));
    const lastModel = findLast(contents, (c) => c.role === "model");
    const call = arr(lastModel?.parts).map(obj).find((p) => p.functionCall !== undefined);
    const decls = arr(j.tools).flatMap((t) => arr(obj(t).functionDeclarations)).map(obj);
    return {
      stream: path.endsWith(":streamGenerateContent"),
      tools: decls.map((d) => ({
        name: str(d.name),
        params: keys(obj(d.parameters ?? d.parametersJsonSchema).properties),
      })),
      lastIsToolResult: contents.length > 0 && isFnResp(contents[contents.length - 1] ?? {}),
      lastUserText: lastUser ? partsText(lastUser) : "",
      lastToolName: call ? str(obj(call.functionCall).name) : undefined,
    };
  },
  framer() {
    const chunk = (parts: unknown[], finishReason?: string) =>
      dataEvent(
        {
          candidates: [{
            content: { role: "model", parts },
            index: 0,
            ...(finishReason ? { finishReason } : {}),
          }],
          usageMetadata: GEMINI_USAGE,
          modelVersion: "mock-model",
        },
        "\r\n",
      );
    return {
      open: () => [],
      delta: (text) => chunk([{ text }]),
      close: (call) => [
        call
          ? chunk([{ functionCall: { name: call.name, args: call.args } }], "STOP")
          : chunk([{ text: "" }], "STOP"),
      ],
    };
  },
  // Side calls (routing, next-speaker, loop checks) want JSON text.
  json: () => ({
    candidates: [{
      content: {
        role: "model",
        parts: [{
          text: JSON.stringify({
            reasoning: "lab mock",
            model_choice: "flash",
            next_speaker: "user",
          }),
        }],
      },
      finishReason: "STOP",
      index: 0,
    }],
    usageMetadata: GEMINI_USAGE,
  }),
};

export const ADAPTERS: readonly ApiAdapter[] = [anthropic, responses, chat, gemini];
