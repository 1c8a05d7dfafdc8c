/**
 * Pattern watchers, the pure part (SPEC W1–W2): compiling patterns, testing
 * one completed line against a session's watchers, and the 3 s limit per
 * pattern. Imports no runtime; time is passed in.
 */

import { UserError } from "../errors.ts";

/** At most one notification per pattern in this window (W1). */
export const WATCH_INTERVAL_MS = 3000;

/** Longest pattern accepted (a regex is code; keep it human-sized). */
export const MAX_PATTERN = 512;

export type WatchSource = "file" | "live";

export interface WatchSpec {
  readonly pattern: string;
  /** false: count matches (watchers tab) without notifying. */
  readonly notify: boolean;
}

/** Compiles a watcher pattern; a bad one is a UserError saying why. */
export function compilePattern(pattern: string): RegExp {
  if (pattern.length > MAX_PATTERN) {
    throw new UserError(`Pattern too long: ${pattern.length} characters (at most ${MAX_PATTERN})`);
  }
  try {
    return new RegExp(pattern);
  } catch (error) {
    const why = (error as Error).message.replace(/^Invalid regular expression: \/.*\/\w*: /, "");
    throw new UserError(`Invalid pattern ${JSON.stringify(pattern)}: ${why}`);
  }
}

/** One armed pattern and what it has seen. */
export class Watch {
  readonly regex: RegExp;
  matches = 0;
  lastLine: string | null = null;
  lastMatchAt: number | null = null;
  #lastNotifiedAt: number | null = null;

  constructor(
    readonly pattern: string,
    readonly notify: boolean,
    readonly source: WatchSource,
  ) {
    this.regex = compilePattern(pattern);
  }

  /**
   * Tests one line at `now`. Returns true when this match should notify:
   * the pattern notifies and its last notification is 3 s old or more.
   */
  test(line: string, now: number): boolean {
    if (!this.regex.test(line)) return false;
    this.matches++;
    this.lastLine = line;
    this.lastMatchAt = now;
    if (!this.notify) return false;
    const last = this.#lastNotifiedAt;
    if (last !== null && now - last < WATCH_INTERVAL_MS && now >= last) return false;
    this.#lastNotifiedAt = now;
    return true;
  }
}

/** Plain data of one watcher, for the TUI and the watchers tab. */
export interface WatchInfo {
  readonly sessionId: string;
  readonly pattern: string;
  readonly source: WatchSource;
  readonly notify: boolean;
  readonly matches: number;
  readonly lastLine: string | null;
  readonly lastMatchAt: number | null;
}

/**
 * A session's watchers: the project file's, plus one replaceable live
 * pattern (W2). `test` returns the watches that should notify for a line.
 */
export class SessionWatches {
  readonly file: readonly Watch[];
  #live: Watch | null = null;

  constructor(file: readonly WatchSpec[] = []) {
    this.file = file.map((w) => new Watch(w.pattern, w.notify, "file"));
  }

  get live(): Watch | null {
    return this.#live;
  }

  get empty(): boolean {
    return this.file.length === 0 && this.#live === null;
  }

  /**
   * Arms (or with "" disarms) the live pattern. An invalid pattern throws
   * before anything changes, so the armed one stays armed.
   */
  arm(pattern: string): Watch | null {
    if (pattern === "") {
      this.#live = null;
      return null;
    }
    const watch = new Watch(pattern, true, "live");
    this.#live = watch;
    return watch;
  }

  test(line: string, now: number): Watch[] {
    const fire: Watch[] = [];
    for (const w of this.file) if (w.test(line, now)) fire.push(w);
    if (this.#live?.test(line, now)) fire.push(this.#live);
    return fire;
  }

  all(): Watch[] {
    return this.#live ? [...this.file, this.#live] : [...this.file];
  }
}
