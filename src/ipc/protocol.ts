/**
 * The hook and control wire (docs/hooks.md, docs/control-api.md; docs/architecture.md, Conventions): every message type,
 * the version, and parse functions that throw a ProtocolError naming the
 * bad field. JSON Lines framing lives in jsonl.ts.
 *
 * Pure: imports zod and the model, no runtime. The hook client does not
 * import this file (zod costs ~25 ms of start-up, docs/architecture.md, Start-up); it
 * builds the same shape by hand and protocol_test.ts checks that both agree.
 *
 * Hook socket (one per session, `session-N.sock`):
 *   client → `{"v":1,"type":"hook","state":"working","kind":null,"payload":{...}}`
 *   server → `{"v":1,"type":"ack"}` or `{"v":1,"type":"error","error":"..."}`
 * Control socket (`control.sock`, off unless control.enabled):
 *   client → `{"id":1,"verb":"list","args":{...}}`
 *   server → `{"id":1,"ok":true,"result":...}` or `{"id":1,"ok":false,"error":"..."}`
 *   (`id` is null in the reply to a line that could not be read as a request)
 */

import { z } from "zod";
import { ProtocolError } from "../errors.ts";
import { AGENT_STATES, STATE_KINDS, type StateKind } from "../model/agent.ts";

export const PROTOCOL_VERSION = 1;

import { HOOK_STATES } from "../model/events.ts";
export { HOOK_STATES, type HookState } from "../model/events.ts";

const text = z.string().max(16 * 1024);

/**
 * Hook metadata (H1): the few fields of the agent's own hook JSON that name
 * the session or fill notification text, and those the mapping needs.
 * Claude Code sends snake_case keys on stdin; Codex's notify argument uses
 * kebab-case. Unknown keys are dropped.
 */
export const hookPayloadSchema = z.object({
  hook_event_name: text.optional(),
  notification_type: text.optional(),
  message: text.optional(),
  session_id: text.optional(),
  transcript_path: text.optional(),
  cwd: text.optional(),
  tool_name: text.optional(),
  prompt: text.optional(),
  last_assistant_message: text.optional(),
  /** Claude Code's StopFailure: rate_limit, server_error, authentication_failed, ... */
  error: text.optional(),
  type: text.optional(),
  "thread-id": text.optional(),
  "turn-id": text.optional(),
  "input-messages": z.array(text).max(16).optional(),
  "last-assistant-message": text.optional(),
});
export type HookPayload = z.infer<typeof hookPayloadSchema>;
export const HOOK_PAYLOAD_KEYS: readonly string[] = Object.keys(hookPayloadSchema.shape);

export const hookMessageSchema = z.object({
  v: z.literal(PROTOCOL_VERSION),
  type: z.literal("hook"),
  state: z.enum(HOOK_STATES),
  kind: z.enum(STATE_KINDS as unknown as [StateKind, ...StateKind[]]).nullable().default(null),
  payload: hookPayloadSchema.default({}),
});
export type HookMessage = z.output<typeof hookMessageSchema>;

export const hookReplySchema = z.discriminatedUnion("type", [
  z.object({ v: z.literal(PROTOCOL_VERSION), type: z.literal("ack") }),
  z.object({ v: z.literal(PROTOCOL_VERSION), type: z.literal("error"), error: z.string() }),
]);
export type HookReply = z.output<typeof hookReplySchema>;

const requestId = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const controlRequestSchema = z.object({
  id: requestId,
  verb: z.string().min(1).max(64),
  args: z.record(z.string(), z.unknown()).default({}),
});
export type ControlRequest = z.output<typeof controlRequestSchema>;

export const controlResponseSchema = z.union([
  z.object({ id: requestId.nullable(), ok: z.literal(true), result: z.unknown() }),
  z.object({ id: requestId.nullable(), ok: z.literal(false), error: z.string() }),
]);
export type ControlResponse =
  | { readonly id: number | null; readonly ok: true; readonly result: unknown }
  | { readonly id: number | null; readonly ok: false; readonly error: string };

/** Agent states `ctl wait --state` accepts. */
export const WAIT_STATES = AGENT_STATES;

function parseWith<S extends z.ZodType>(schema: S, line: string, what: string): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new ProtocolError(`Not a JSON ${what}`, null);
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join(".") : null;
  const reason = issue?.message ?? "invalid";
  throw new ProtocolError(
    field ? `Bad ${what} field ${field}: ${reason}` : `Bad ${what}: ${reason}`,
    field,
  );
}

export function parseHookMessage(line: string): HookMessage {
  return parseWith(hookMessageSchema, line, "hook message");
}

export function parseHookReply(line: string): HookReply {
  return parseWith(hookReplySchema, line, "hook reply");
}

export function parseControlRequest(line: string): ControlRequest {
  return parseWith(controlRequestSchema, line, "control request");
}

export function parseControlResponse(line: string): ControlResponse {
  return parseWith(controlResponseSchema, line, "control response") as ControlResponse;
}

/** The request id of a line that failed to parse, when one can be read (for the error reply). */
export function salvageId(line: string): number | null {
  try {
    const value = JSON.parse(line) as { id?: unknown };
    return requestId.safeParse(value?.id).success ? value.id as number : null;
  } catch {
    return null;
  }
}
