/**
 * Notification policy (docs/notifications.md), pure: what a notification says, the
 * bytes that carry it to the host terminal, whether it may be sent now.
 *
 * Owns: notification text, OSC 9 / OSC 777 encoding, tmux passthrough, the
 * per-key rate limiter and the focus rule. Imports no runtime (no Deno.*);
 * time is passed in as `now` (epoch ms).
 */

import { errorReason, type StateKind } from "../model/agent.ts";

/** Why a session notifies: an agent state (blocked, done, error), a failed command, a watcher. */
export type NotifyReason = "blocked" | "done" | "error" | "failed" | "watch";

export interface Notification {
  readonly sessionId: string;
  readonly sessionName: string;
  readonly reason: NotifyReason;
  /** The whole text, naming the session and the reason. */
  readonly text: string;
  /**
   * Rate-limit key within the session (default: the reason). Watchers use
   * `watch:<pattern>` so each pattern is limited on its own.
   */
  readonly key?: string;
  /** Minimum ms between two notifications of this session and key (default: config). */
  readonly minIntervalMs?: number;
}

/** Title of the OSC 777 notification (the body carries the session). */
export const NOTIFY_TITLE = "lazyshell";

/** Longest text sent; terminals truncate or choke on longer ones. */
export const MAX_TEXT = 512;

/**
 * "api: needs you — approve Bash: touch lab-file.txt" / "api: done" /
 * "api: failed — rate limited (429)". The reason is the OSC 7501 `msg` (or
 * hook message, or what an error rule read on screen) when there is one; a
 * failed turn says why in words when its kind is known (model/agent.ts).
 */
export function stateText(
  name: string,
  state: "blocked" | "done" | "error",
  msg: string | null,
  kind: StateKind | null = null,
): string {
  if (state === "error") {
    const why = errorReason(kind, msg);
    return why ? `${name}: failed — ${why}` : `${name}: failed`;
  }
  const head = `${name}: ${state === "blocked" ? "needs you" : "done"}`;
  const detail = msg?.trim();
  return detail ? `${head} — ${detail}` : head;
}

/** "build: command failed (exit 2)" (N2). */
export function failedText(name: string, exitCode: number): string {
  return `${name}: command failed (exit ${exitCode})`;
}

/** "api: ERR! matched — npm ERR! missing script" (W1). */
export function watchText(name: string, pattern: string, line: string): string {
  const detail = line.trim();
  return detail ? `${name}: ${pattern} matched — ${detail}` : `${name}: ${pattern} matched`;
}

/**
 * Text safe inside an OSC string: control characters (which would end or
 * corrupt the sequence) become spaces, runs of blanks collapse, bounded.
 */
export function sanitize(text: string, max = MAX_TEXT): string {
  // deno-lint-ignore no-control-regex -- removing control characters is the point
  const clean = text.replace(/[\x00-\x1f\x7f-\x9f]+/g, " ").replace(/ {2,}/g, " ").trim();
  return clean.length <= max ? clean : `${clean.slice(0, max - 1)}…`;
}

/**
 * OSC 9 (iTerm2, WezTerm, Windows Terminal, ...) then OSC 777 (rxvt, Ghostty,
 * foot, ...), both always: a terminal that knows one ignores the other. BEL
 * terminated, the form both families document. `;` separates OSC 777
 * fields, so the title may not hold one.
 */
export function oscNotification(title: string, body: string): string {
  const t = sanitize(title, 64).replaceAll(";", ",");
  const b = sanitize(body);
  return `\x1b]9;${b}\x07\x1b]777;notify;${t};${b}\x07`;
}

/**
 * tmux passthrough (`allow-passthrough on`): `ESC P tmux; <seq, ESC doubled> ESC \`.
 * Each OSC is wrapped on its own so tmux forwards both.
 */
export function tmuxWrap(sequence: string): string {
  // deno-lint-ignore no-control-regex -- splitting on ESC ] is the point
  const parts = sequence.split(/(?=\x1b\])/).filter((p) => p !== "");
  return parts.map((p) => `\x1bPtmux;${p.replaceAll("\x1b", "\x1b\x1b")}\x1b\\`).join("");
}

/** The bytes written to the host terminal for one notification. */
export function hostBytes(text: string, insideTmux: boolean): string {
  const seq = oscNotification(NOTIFY_TITLE, text);
  return insideTmux ? tmuxWrap(seq) : seq;
}

/** What one client's user looks at (RuntimeState.focus). */
export interface FocusLike {
  readonly selected: string | null;
  readonly terminal: boolean;
}

/** No notification for the session the user is typing into (N1). */
export function isWatching(focus: FocusLike, sessionId: string): boolean {
  return focus.terminal && focus.selected === sessionId;
}

/**
 * At most one notification per key every `intervalMs`: a loop of failing
 * commands, a watcher pattern matching a burst of lines. `reset(prefix)`
 * forgets a session's keys when the user typed into it. (Blocked and done
 * are not timed: they follow their episodes, episodes.ts.)
 */
export class RateLimiter {
  #last = new Map<string, number>();

  /** True (and remembered) when `key` may fire at `now`. */
  allow(key: string, now: number, intervalMs: number): boolean {
    const last = this.#last.get(key);
    if (last !== undefined && now - last < intervalMs && now >= last) return false;
    this.#last.set(key, now);
    return true;
  }

  /** Forgets every key starting with `prefix`. */
  reset(prefix: string): void {
    for (const key of [...this.#last.keys()]) if (key.startsWith(prefix)) this.#last.delete(key);
  }

  get size(): number {
    return this.#last.size;
  }
}

/** The rate-limit key of a notification: session, then reason or explicit key. */
export function limitKey(n: Notification): string {
  return `${n.sessionId}\0${n.key ?? n.reason}`;
}
