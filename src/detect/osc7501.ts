/**
 * OSC 7501, the Program Status Protocol (docs/detection.md): parse records, apply
 * bursts within bounds, and the lifetimes of a declaration. Pure; malformed
 * input is ignored, never thrown.
 *
 * Record: `key=value` pairs separated by `:` — state (idle, working,
 * blocked, done, error, or the action `clear`), kind (blocked only:
 * permission, question, auth), progress (0–100), app, title, msg (base64,
 * at most 2048 bytes decoded). A record with an `id` is about one of the
 * program's own tasks (Claude Code's subagents: `state=working:id=…:title=…`,
 * then `state=clear:id=…`), not the program: it is not applied.
 */

import { isAgentState, isBlockedKind } from "../model/agent.ts";
import type { AgentStateName, BlockedKind } from "../model/agent.ts";
import { plainText } from "../model/printable.ts";

export const MAX_RECORDS = 256;
export const MAX_BURST_BYTES = 256 * 1024;
export const MAX_MSG_BYTES = 2048;

export interface Osc7501Record {
  /** null: an update of progress/title/msg without a state change. */
  readonly state: AgentStateName | "clear" | null;
  readonly kind: BlockedKind | null;
  readonly progress: number | null;
  readonly app: string | null;
  readonly title: string | null;
  readonly msg: string | null;
}

/** What the program currently declares. */
export interface Declared {
  readonly state: AgentStateName;
  readonly kind: BlockedKind | null;
  readonly progress: number | null;
  readonly app: string | null;
  readonly title: string | null;
  readonly msg: string | null;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Decodes base64 to UTF-8 text; null when invalid or longer than `max` bytes. */
export function decodeBase64(value: string, max = MAX_MSG_BYTES): string | null {
  if (!BASE64.test(value) || value.length % 4 === 1) return null;
  if (Math.floor(value.length * 3 / 4) > max + 2) return null;
  try {
    const binary = atob(value);
    if (binary.length > max) return null;
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Parses the payload after `7501;`. Returns null for the query (`?`), for a
 * record about one of the program's tasks (an `id`), and for malformed
 * records: an unknown state or kind, or nothing to apply. A msg
 * that is not valid base64 or exceeds 2048 bytes is dropped, the state kept.
 */
export function parseRecord(payload: string): Osc7501Record | null {
  if (payload.length === 0 || payload.startsWith("?")) return null;
  const fields = new Map<string, string>();
  for (const part of payload.split(":")) {
    const eq = part.indexOf("=");
    if (eq <= 0) {
      if (part.trim() === "") continue;
      return null;
    }
    fields.set(part.slice(0, eq).trim(), part.slice(eq + 1));
  }
  if ((fields.get("id") ?? "") !== "") return null;
  const rawState = fields.get("state");
  let state: Osc7501Record["state"] = null;
  if (rawState !== undefined) {
    if (rawState === "clear") state = "clear";
    else if (isAgentState(rawState)) state = rawState;
    else return null;
  }
  const rawKind = fields.get("kind");
  let kind: BlockedKind | null = null;
  if (rawKind !== undefined && rawKind !== "") {
    if (!isBlockedKind(rawKind)) return null;
    kind = state === "blocked" ? rawKind : null;
  }
  const rawProgress = fields.get("progress");
  const progress = rawProgress !== undefined && /^\d{1,3}$/.test(rawProgress) &&
      Number(rawProgress) <= 100
    ? Number(rawProgress)
    : null;
  const rawMsg = fields.get("msg");
  const decoded = rawMsg === undefined ? null : decodeBase64(rawMsg);
  // Shown in the TUI, notifications and `ctl list`: no escape sequence goes on.
  const msg = decoded === null ? null : plainText(decoded);
  const rawTitle = fields.get("title");
  const title = rawTitle === undefined ? null : (decodeBase64(rawTitle, 1024) ?? rawTitle);
  const app = fields.get("app") ?? null;
  if (state === null && progress === null && msg === null && title === null) return null;
  return { state, kind, progress, app, title, msg };
}

/**
 * Parses one burst of payloads (see Burst). More than 256 KiB in total
 * drops the burst whole (null); of the rest, malformed records are skipped
 * and only the last 256 kept.
 */
export function parseBurst(payloads: readonly string[]): Osc7501Record[] | null {
  let bytes = 0;
  for (const p of payloads) bytes += p.length;
  if (bytes > MAX_BURST_BYTES) return null;
  const records: Osc7501Record[] = [];
  for (const p of payloads) {
    const r = parseRecord(p);
    if (r) records.push(r);
  }
  return records.length > MAX_RECORDS ? records.slice(-MAX_RECORDS) : records;
}

/**
 * Two records this far apart (or further) belong to two bursts. Longer
 * than the pauses lazyshell itself puts inside one write of records: the
 * PTY is paused while the emulator catches up and read again on the next
 * 50 ms timer tick; a 405 KB write showed gaps of up to ~90 ms between its
 * reads on the 2-core machine the tests run on.
 */
export const BURST_GAP_MS = 200;
/** A burst that never pauses (a progress flood) is judged after this long anyway. */
export const BURST_SPAN_MS = 1000;

/**
 * OSC 7501 records grouped into bursts (docs/detection.md "Bursts"): the
 * records a program writes with no pause of BURST_GAP_MS between two of
 * them, however many PTY reads carry them. A burst is over once that gap
 * has passed while lazyshell was not behind (all the program wrote was read
 * and parsed: a pause of lazyshell's own is no gap), or once it has lasted
 * BURST_SPAN_MS, or at once when the session gets
 * input, shows a prompt (OSC 133;A) or exits (what follows must not
 * overtake it). Only then is it applied, or dropped whole past
 * MAX_BURST_BYTES. Pure: time is passed in.
 */
export class Bursts {
  #closed: string[][] = [];
  #open: string[] = [];
  #firstAt = 0;
  #lastAt = 0;
  /** When take() last found the session not behind. */
  #caughtUpAt = -Infinity;

  add(payload: string, now: number): void {
    // A gap counts once lazyshell had caught up after the last record (not its own stall).
    const gap = now - this.#lastAt >= BURST_GAP_MS && this.#caughtUpAt >= this.#lastAt;
    if (this.#open.length > 0 && gap) this.#close();
    if (this.#open.length === 0) this.#firstAt = now;
    this.#open.push(payload);
    this.#lastAt = now;
  }

  get empty(): boolean {
    return this.#open.length === 0 && this.#closed.length === 0;
  }

  /** The session was not behind at `now` (its output all read and parsed). */
  caughtUp(now: number): void {
    this.#caughtUpAt = now;
  }

  /**
   * The bursts that are over, oldest first: each one's records, or null
   * for a burst dropped whole. `behind`: the session has output not read
   * or not parsed yet; `end`: end the open burst whatever the time.
   */
  take(now: number, behind: boolean, end = false): (Osc7501Record[] | null)[] {
    if (!behind) this.caughtUp(now);
    const due = this.dueAt();
    if (end || (due !== null && now >= due && !behind)) this.#close();
    return this.#closed.splice(0).map(parseBurst);
  }

  /** When the open burst may be over, or null when none is open. */
  dueAt(): number | null {
    if (this.#open.length === 0) return null;
    return Math.min(this.#lastAt + BURST_GAP_MS, this.#firstAt + BURST_SPAN_MS);
  }

  #close(): void {
    if (this.#open.length > 0) this.#closed.push(this.#open);
    this.#open = [];
  }
}

/** The declaration after one record. */
export function applyRecord(current: Declared | null, r: Osc7501Record): Declared | null {
  if (r.state === "clear") return null;
  if (r.state === null) {
    if (!current) return null;
    return {
      ...current,
      progress: r.progress ?? current.progress,
      title: r.title ?? current.title,
      msg: r.msg ?? current.msg,
    };
  }
  return {
    state: r.state,
    kind: r.state === "blocked" ? r.kind : null,
    progress: r.progress,
    app: r.app ?? current?.app ?? null,
    title: r.title,
    msg: r.msg,
  };
}

/** OSC 133;A (the shell prompt is back) and program exit clear working/blocked. */
export function onPromptOrExit(current: Declared | null): Declared | null {
  return current && (current.state === "working" || current.state === "blocked") ? null : current;
}

/** The user typed into the session: done and error are cleared (ctl send is not typing). */
export function onTyped(current: Declared | null): Declared | null {
  return current && (current.state === "done" || current.state === "error") ? null : current;
}

/** The last records of a session, at most MAX_RECORDS (for "explain"). */
export class RecordLog {
  #records: Osc7501Record[] = [];

  push(records: readonly Osc7501Record[]): void {
    this.#records.push(...records);
    if (this.#records.length > MAX_RECORDS) {
      this.#records.splice(0, this.#records.length - MAX_RECORDS);
    }
  }

  get records(): readonly Osc7501Record[] {
    return this.#records;
  }
}
