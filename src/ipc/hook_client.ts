/**
 * The sending half of the hook socket (H1), used by `lazyshell hook`.
 *
 * Deno APIs only: no `node:`, no `npm:`, no zod (agents run hooks
 * synchronously; each import costs start-up time, docs/architecture.md, Start-up). The
 * message shape is protocol.ts's `hookMessageSchema`, built by hand here;
 * protocol_test.ts checks that both agree. Every wait is bounded, and
 * nothing here throws: a hook must never break an agent's turn.
 */

import { encodeLine, HOOK_LINE_LIMIT, readLines } from "./jsonl.ts";
import { checkOwnSocket } from "./private_path.ts";
import { deadline } from "../util/async.ts";

export const HOOK_STATES = ["idle", "working", "blocked", "done", "error"] as const;
export type HookState = typeof HOOK_STATES[number];
/** Blocked kinds, then error kinds (model/agent.ts STATE_KINDS; protocol_test.ts checks). */
export const HOOK_KINDS = [
  "permission",
  "question",
  "auth",
  "rate_limit",
  "overloaded",
  "quota",
  "connection",
  "limit",
] as const;
export type HookKind = typeof HOOK_KINDS[number];

/** Keys of the agent's hook JSON that are forwarded (protocol.ts `hookPayloadSchema`). */
export const FORWARDED_KEYS = [
  "hook_event_name",
  "notification_type",
  "message",
  "session_id",
  "transcript_path",
  "cwd",
  "tool_name",
  "prompt",
  "last_assistant_message",
  "error",
  "type",
  "thread-id",
  "turn-id",
  "input-messages",
  "last-assistant-message",
] as const;

/** Longest forwarded string (metadata only; the limit of protocol.ts is 16 KiB). */
const MAX_TEXT = 4096;
const MAX_LIST = 8;

export type ForwardedPayload = Record<string, string | string[]>;

export interface HookMessageOut {
  readonly v: 1;
  readonly type: "hook";
  readonly state: HookState;
  readonly kind: HookKind | null;
  readonly payload: ForwardedPayload;
}

/** Keeps the forwarded metadata of an agent's hook JSON; anything else is dropped. */
export function forwardedPayload(raw: unknown): ForwardedPayload {
  const out: ForwardedPayload = {};
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return out;
  const record = raw as Record<string, unknown>;
  for (const key of FORWARDED_KEYS) {
    const value = record[key];
    if (typeof value === "string") out[key] = clip(value);
    else if (Array.isArray(value)) {
      const strings = value.filter((v): v is string => typeof v === "string");
      out[key] = strings.slice(-MAX_LIST).map(clip);
    }
  }
  return out;
}

function clip(text: string): string {
  return text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
}

export function hookMessage(
  state: HookState,
  kind: HookKind | null,
  payload: ForwardedPayload = {},
): HookMessageOut {
  return { v: 1, type: "hook", state, kind, payload };
}

export interface HookArgs {
  readonly state: HookState;
  readonly kind: HookKind | null;
  /** A JSON argument (Codex notify), if any. */
  readonly json: string | null;
}

/** Parses our arguments; null when they make no sense (then nothing is sent). */
export function parseHookArgs(args: readonly string[]): HookArgs | null {
  let state: HookState | null = null;
  let kind: HookKind | null = null;
  let json: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    let kindValue: string | undefined;
    if (arg === "--kind") kindValue = args[++i];
    else if (arg.startsWith("--kind=")) kindValue = arg.slice("--kind=".length);
    else if (state === null && (HOOK_STATES as readonly string[]).includes(arg)) {
      state = arg as HookState;
      continue;
    } else if (arg.trimStart().startsWith("{")) {
      json = arg;
      continue;
    } else return null;
    if (kindValue === undefined || !(HOOK_KINDS as readonly string[]).includes(kindValue)) {
      return null;
    }
    kind = kindValue as HookKind;
  }
  return state === null ? null : { state, kind, json };
}

export type SendResult =
  | "acked"
  | "rejected"
  | "no-socket"
  | "refused"
  | "timeout"
  | "failed"
  | "unsafe";

/**
 * Connects to `path`, writes one message and waits for the server's reply,
 * all within `deadlineMs`. Never throws; says what happened. A socket in a
 * directory that is not private to us, or not ours, is never written to
 * ("unsafe": the agent's metadata would go to whoever planted it).
 */
export async function sendHook(
  path: string,
  message: HookMessageOut,
  deadlineMs = 300,
): Promise<SendResult> {
  try {
    checkOwnSocket(path);
  } catch {
    return "unsafe";
  }
  let conn: Deno.UnixConn | null = null;
  const timer = deadline(deadlineMs);
  const expired = timer.expired.then(() => "timeout" as const);
  const attempt = (async (): Promise<SendResult> => {
    try {
      conn = await Deno.connect({ transport: "unix", path });
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return "no-socket";
      if (error instanceof Deno.errors.ConnectionRefused) return "refused";
      return "failed";
    }
    try {
      const bytes = encodeLine(message);
      let offset = 0;
      while (offset < bytes.length) offset += await conn.write(bytes.subarray(offset));
      for await (const item of readLines(conn, HOOK_LINE_LIMIT)) {
        if (item.type !== "line") return "failed";
        return item.text.includes('"ack"') ? "acked" : "rejected";
      }
      return "failed";
    } catch {
      return "failed";
    }
  })();
  try {
    return await Promise.race([attempt, expired]);
  } finally {
    timer.cancel();
    try {
      (conn as Deno.UnixConn | null)?.close();
    } catch { /* already closed */ }
    // Once connected, closing makes the attempt settle (its read fails);
    // a connect that never returns is left to the process exit.
    if (conn !== null) await attempt.catch(() => {});
  }
}
