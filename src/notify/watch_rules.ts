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

/** What one line did: every watch it matched, and those that notify now. */
export interface LineMatches {
  readonly matched: Watch[];
  readonly fire: Watch[];
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
  /** One alternation of every combinable pattern: most lines match none, one scan says so. */
  #any: RegExp | null = null;
  /** Patterns that cannot join the alternation (back-references): always tested. */
  #apart: Watch[] = [];
  /** The alternation in multiline mode, for whole blocks of lines; null: no block test. */
  #block: RegExp | null = null;

  constructor(file: readonly WatchSpec[] = []) {
    this.file = file.map((w) => new Watch(w.pattern, w.notify, "file"));
    this.#combine();
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
    this.#live = pattern === "" ? null : new Watch(pattern, true, "live");
    this.#combine();
    return this.#live;
  }

  /**
   * BlockSearch over a block of lines (line_assembler.ts): the index of the
   * leftmost place any pattern matches from `from`, or -1; `from` itself
   * (every line a candidate) when there is no block regex. With `m`, ^
   * holds at each line's start as on a lone line; a match across lines only
   * costs testing one more line. No block regex when a pattern uses `$`
   * (it would meet the `\r` of a line end), looks around (it would see the
   * next line) or refers back.
   */
  find(text: string, from: number): number {
    const block = this.#block;
    if (block === null) return from; // every line is a candidate
    block.lastIndex = from;
    return block.exec(text)?.index ?? -1;
  }

  /** Tests one line: the watches that matched and, among them, those that notify; null: none. */
  test(line: string, now: number): LineMatches | null {
    if (this.#any !== null && !this.#any.test(line)) {
      return this.#apart.length === 0 ? null : this.#testAll(this.#apart, line, now);
    }
    return this.#testAll(this.all(), line, now);
  }

  all(): Watch[] {
    return this.#live ? [...this.file, this.#live] : [...this.file];
  }

  #testAll(watches: readonly Watch[], line: string, now: number): LineMatches | null {
    let result: LineMatches | null = null;
    for (const w of watches) {
      const before = w.matches;
      const fire = w.test(line, now);
      if (w.matches === before) continue;
      result ??= { matched: [], fire: [] };
      result.matched.push(w);
      if (fire) result.fire.push(w);
    }
    return result;
  }

  #combine(): void {
    const all = this.all();
    const together = all.filter((w) => !/\\[1-9]|\\k</.test(w.pattern));
    this.#apart = all.filter((w) => !together.includes(w));
    this.#any = null;
    this.#block = null;
    if (together.length === 0) {
      this.#apart = all;
      return;
    }
    const source = together.map((w) => `(?:${w.pattern})`).join("|");
    try {
      this.#any = new RegExp(source);
      if (this.#apart.length === 0 && !all.some((w) => /\(\?<?[=!]|\$/.test(w.pattern))) {
        this.#block = new RegExp(source, "gm");
      }
    } catch {
      this.#apart = all; // e.g. the same named group in two patterns
    }
  }
}
