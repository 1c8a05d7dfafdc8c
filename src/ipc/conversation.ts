/**
 * Which agent conversation a hook message names (docs/hooks.md, "Conversation
 * ids"): the id `lazyshell restore` resumes, with where it came from. Pure.
 *
 * Evidence, one key per agent family:
 * - Claude Code sends `session_id` (and `transcript_path`, `cwd`) with every hook;
 * - Codex's `notify` JSON carries `thread-id` (and `cwd`) on `agent-turn-complete`;
 *   only a real turn counts: the hidden title request has a thread of its own,
 *   and the hook interpreter already drops it (callers pass interpreted messages only);
 * - the opencode plugin (src/ipc/opencode_plugin.ts) sends its bus events'
 *   `sessionID` as `session_id`.
 */

import type { ConversationRef } from "../model/session.ts";
import type { HookMessage } from "./protocol.ts";

export type ConversationEvidence = Omit<ConversationRef, "agent">;

/**
 * What an id may look like: the agents' UUIDs and `ses_…` ids. Anything else
 * is not kept, so an id can go into a resume command line as one word.
 */
const ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/**
 * Whether `id` may go into a resume command line: the same rule for an id a
 * hook sends, one found in the agent's own store and one read back from the state file (a hand-edited
 * `--dangerously-skip-permissions` is no id).
 */
export function isConversationId(id: string): boolean {
  return ID.test(id);
}

/** The conversation a hook message names, or null. */
export function conversationOf(message: HookMessage): ConversationEvidence | null {
  const p = message.payload;
  const event = p.hook_event_name ?? p.type ?? "hook";
  const [key, id] = p.session_id !== undefined
    ? ["session_id", p.session_id]
    : p.type === "agent-turn-complete" && p["thread-id"] !== undefined
    ? ["thread-id", p["thread-id"]]
    : [null, undefined];
  if (key === null || id === undefined || !isConversationId(id)) return null;
  return {
    id,
    source: `hook ${event}: ${key}`,
    cwd: absolute(p.cwd),
    transcript: absolute(p.transcript_path),
  };
}

function absolute(path: string | undefined): string | null {
  return path !== undefined && path.startsWith("/") && !path.includes("\0") ? path : null;
}
