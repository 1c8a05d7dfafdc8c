/**
 * What a session name and a group name may be, in one place: the store
 * (every way of creating, renaming or grouping a session: `ctl`, the TUI,
 * a project file) and the project file's schema use these. At most 64
 * characters, and no control characters (C0, DEL, C1) nor bidirectional
 * controls (U+202E …): names are printed by `ctl list`, drawn in the sidebar
 * and put in notifications, where an ESC or a CR would drive the terminal and
 * a right-to-left override would make one name read as another. A group name is one word (no spaces);
 * a session name may hold spaces but not start with one.
 */

import { UserError } from "../errors.ts";
import { printable } from "./printable.ts";

export const MAX_NAME_LENGTH = 64;

// deno-lint-ignore no-control-regex -- control characters are what names may not hold
const GROUP_NAME = /^[^\s\x00-\x1f\x7f-\x9f]{1,64}$/u;
// deno-lint-ignore no-control-regex -- see GROUP_NAME
const SESSION_NAME = /^[^\s\x00-\x1f\x7f-\x9f][^\x00-\x1f\x7f-\x9f]{0,63}$/u;
/**
 * Bidirectional controls (ALM, LRM, RLM, the embeddings and overrides, the
 * isolates): U+202E makes `session-1` print as `1-noisses` and a name look
 * like another in the list, a notification or `ctl list`.
 */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const RESERVED = /^session-\d+$/;

export const GROUP_NAME_RULE =
  "1–64 characters, no spaces, control characters or bidirectional controls";
export const SESSION_NAME_RULE =
  "1–64 characters, no control characters or bidirectional controls, not starting with a space";

export function isGroupName(name: string): boolean {
  return GROUP_NAME.test(name) && !BIDI.test(name);
}

export function isSessionName(name: string): boolean {
  return SESSION_NAME.test(name) && !BIDI.test(name);
}

/** `session-N` is an id, never a name. */
export function isReservedName(name: string): boolean {
  return RESERVED.test(name);
}

/** The group name, or a UserError quoting it with its control characters escaped. */
export function checkGroupName(name: string): string {
  if (!isGroupName(name)) {
    throw new UserError(`Invalid group name: ${quote(name)} (${GROUP_NAME_RULE})`);
  }
  return name;
}

/** The trimmed session name (uniqueness is the store's to check). */
export function checkSessionName(name: string): string {
  const trimmed = name.trim();
  if (!isSessionName(trimmed)) {
    throw new UserError(`Invalid session name: ${quote(name)} (${SESSION_NAME_RULE})`);
  }
  if (isReservedName(trimmed)) {
    throw new UserError(`Session names of the form session-N are reserved for ids: ${trimmed}`);
  }
  return trimmed;
}

function quote(name: string): string {
  return printable(JSON.stringify(name));
}

/**
 * A session name from a task's first words (`N` with a first prompt):
 * "Fix the login bug in auth.ts" → `fix-the-login-bug-in`. Null when the
 * text has no word.
 */
export function taskName(prompt: string, words = 5): string | null {
  const picked = prompt.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
    .split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "").slice(0, words);
  const name = picked.join("-").slice(0, 40).replace(/-+$/, "");
  return name === "" || isReservedName(name) ? null : name;
}
