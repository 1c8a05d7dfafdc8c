/**
 * What one hook message means (H1–H3), from the state the user's hook
 * command names plus the agent's own metadata. Pure; one interpreter per
 * session because Codex's hidden title turns are recognised by memory too.
 *
 * Facts it encodes (fixtures/captures/README.md):
 * - Claude Code fires `PermissionRequest` the moment a prompt opens; an
 *   `AskUserQuestion` prompt is told apart only by `tool_name` → kind
 *   `question`. `Notification` comes 6 s later for a permission prompt
 *   (`notification_type: permission_prompt`) and 60 s after a turn for an
 *   idle prompt: a Notification that is not a permission request maps to
 *   idle, never blocked (H3).
 * - Claude Code fires `StopFailure` instead of `Stop` when the turn failed
 *   on the model API, with the error type (`rate_limit`, `server_error`,
 *   `authentication_failed`, ...) and the error text as its last message
 *   (fixtures/hooks/claude-fail-*.hooks.jsonl). A bad key is the user's to
 *   fix: Claude declares that one `blocked`, kind `auth`, over OSC 7501 and
 *   shows "Once fixed, resend your message", so it maps to blocked too.
 * - Codex's `notify` only reports `agent-turn-complete`, and also fires at
 *   the start of every turn for a hidden title request (its own thread-id,
 *   input = the title prompt with the user's prompt appended). That one
 *   must not end the turn.
 */

import { isBlockedKind, isErrorKind, type StateKind } from "../model/agent.ts";
import type { ErrorKind } from "../model/agent.ts";
import type { HookEvent } from "../model/events.ts";
import { plainText } from "../model/printable.ts";
import { forwardedPayload, hookMessage, parseHookArgs } from "./hook_client.ts";
import {
  type HookMessage,
  type HookPayload,
  type HookState,
  parseHookMessage,
} from "./protocol.ts";

export type { HookEvent } from "../model/events.ts";

/** Opening of Codex 0.171's hidden title prompt (codex-tool/notify.jsonl). */
const CODEX_TITLE_PROMPT = /^Generate a concise, single-line task title\b/;
/** The generic shape of a title/summary side request: instructions, then the user's prompt quoted. */
const QUOTED_USER_PROMPT = /\n\s*User prompt:\s*\n/;

const MSG_LIMIT = 300;

/** A lost connection, in an error message ("Connection to the API was lost (ECONNRESET)"). */
const CONNECTION = /\bECONN\w*|connection (?:to .* )?(?:was )?(?:lost|reset|refused|closed)/i;

/**
 * Claude Code's StopFailure error types (2.1.332) → why the turn failed.
 * `server_error` covers both repeated 529s and a lost connection
 * (claude-fail-overload, claude-fail-cut): its message tells them apart.
 */
const CLAUDE_ERRORS: Readonly<Record<string, ErrorKind>> = {
  rate_limit: "rate_limit",
  overloaded: "overloaded",
  server_error: "overloaded",
  authentication_failed: "auth",
  oauth_org_not_allowed: "auth",
  verification_required: "auth",
  cloud_credential_error: "auth",
  billing_error: "quota",
  account_on_hold: "quota",
};

export class HookInterpreter {
  /** thread-ids of Codex side requests seen so far (never a real turn). */
  readonly #sideThreads = new Set<string>();

  /** The event to apply, or null when the message must not move the state. */
  interpret(message: HookMessage): HookEvent | null {
    const p = message.payload;
    if (p.type === "agent-turn-complete") return this.#codex(message, p);
    const event = p.hook_event_name ?? "hook";
    const state: HookState = message.state;
    let kind = kindFor(state, message.kind);
    if (state === "error" && p.error !== undefined) kind = CLAUDE_ERRORS[p.error] ?? kind;
    if (p.error === "server_error" && CONNECTION.test(p.last_assistant_message ?? "")) {
      kind = "connection";
    }
    if (event === "StopFailure" && state === "error" && kind === "auth") {
      return { state: "blocked", kind, msg: messageFor("error", p), event };
    }
    if (event === "Notification" && state === "blocked") {
      if (!isPermissionNotification(p)) {
        return { state: "idle", kind: null, msg: text(p.message), event };
      }
      kind = kind ?? "permission";
    }
    if (event === "PermissionRequest" && state === "blocked") {
      kind = p.tool_name === "AskUserQuestion" ? "question" : kind ?? "permission";
    }
    return { state, kind, msg: messageFor(state, p), event };
  }

  #codex(message: HookMessage, p: HookPayload): HookEvent | null {
    const thread = p["thread-id"];
    if (isSideRequest(p) || (thread !== undefined && this.#sideThreads.has(thread))) {
      if (thread !== undefined) this.#sideThreads.add(thread);
      return null;
    }
    const state = message.state;
    return {
      state,
      kind: kindFor(state, message.kind),
      msg: text(p["last-assistant-message"]),
      event: "agent-turn-complete",
    };
  }
}

/**
 * What one run of `lazyshell hook <args>` with the agent's hook JSON ends up
 * applying: the message the hook client builds, as the hook server parses and
 * interprets it (replay of a capture's hooks, src/replay/capture.ts; tests). Codex's
 * notify passes its JSON as the last argument instead.
 */
export function interpretRun(
  interpreter: HookInterpreter,
  args: readonly string[],
  payload: unknown = null,
): HookEvent | null {
  const parsed = parseHookArgs(args);
  if (!parsed) return null;
  const metadata = parsed.json === null ? payload : JSON.parse(parsed.json);
  const wire = JSON.stringify(hookMessage(parsed.state, parsed.kind, forwardedPayload(metadata)));
  return interpreter.interpret(parseHookMessage(wire));
}

function isPermissionNotification(p: HookPayload): boolean {
  if (p.notification_type !== undefined) return p.notification_type === "permission_prompt";
  // Older Claude Code versions send no type: judge by the text.
  return /\bpermission\b/i.test(p.message ?? "");
}

/** A hidden side request (task title) rather than the user's turn. */
export function isSideRequest(p: HookPayload): boolean {
  const inputs = p["input-messages"] ?? [];
  if (inputs.length !== 1) return false;
  const only = inputs[0]!;
  return CODEX_TITLE_PROMPT.test(only) || QUOTED_USER_PROMPT.test(only);
}

/** The kind when it is one of the state's own (blocked or error), else null. */
function kindFor(state: HookState, kind: StateKind | null): StateKind | null {
  if (kind === null) return null;
  if (state === "blocked") return isBlockedKind(kind) ? kind : null;
  if (state === "error") return isErrorKind(kind) ? kind : null;
  return null;
}

function messageFor(state: HookState, p: HookPayload): string | null {
  if (state === "blocked") {
    if (p.message) return text(p.message);
    if (p.tool_name) return `approve ${p.tool_name}`;
    return null;
  }
  if (state === "done") return text(p.last_assistant_message);
  // StopFailure's last message is the error text; the opencode plugin sends `message`.
  if (state === "error") return text(p.message) ?? text(p.last_assistant_message);
  return null;
}

/**
 * First line of a text, clipped for a notification; escape sequences and
 * controls removed (it is shown in the TUI, notifications and `ctl list`).
 */
function text(value: string | undefined): string | null {
  if (!value) return null;
  const line = plainText(value.trim().split("\n")[0]!).trim();
  if (!line) return null;
  return line.length > MSG_LIMIT ? `${line.slice(0, MSG_LIMIT - 1)}…` : line;
}
