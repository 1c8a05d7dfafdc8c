/**
 * Pattern watchers, the pure part (docs/notifications.md): compiling patterns, testing
 * one completed line against a session's watchers, and the 3 s limit per
 * pattern. Imports no runtime; time is passed in.
 */

import { UserError } from "../errors.ts";
import { compileRegex, type LinearRegex, prefilterFlags, RegexError } from "../detect/regex.ts";

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

/**
 * Compiles a watcher pattern for linear-time matching (detect/regex.ts); a
 * bad one, or one that needs backtracking (lookahead, back-reference), is a
 * UserError saying why.
 */
export function compilePattern(pattern: string): LinearRegex {
  if (pattern.length > MAX_PATTERN) {
    throw new UserError(`Pattern too long: ${pattern.length} characters (at most ${MAX_PATTERN})`);
  }
  try {
    return compileRegex(pattern);
  } catch (error) {
    if (!(error instanceof RegexError)) throw error;
    throw new UserError(`Invalid pattern ${JSON.stringify(pattern)}: ${error.message}`);
  }
}

/** One armed pattern and what it has seen. */
export class Watch {
  readonly regex: LinearRegex;
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
  #file: readonly Watch[];
  #live: Watch | null = null;
  /** Every pattern's prefilter in one V8 regex: most lines match none, one scan says so; null: test each. */
  #any: RegExp | null = null;
  /** Every pattern's prefilter in one V8 regex, for whole blocks of lines; null: no block test. */
  #block: RegExp | null = null;

  constructor(file: readonly WatchSpec[] = []) {
    this.#file = file.map((w) => new Watch(w.pattern, w.notify, "file"));
    this.#combine();
  }

  /** The project file's watchers. */
  get file(): readonly Watch[] {
    return this.#file;
  }

  /**
   * The project file's watchers change (a reload): a pattern kept as it was
   * keeps its counts and its 3 s limit; the others start afresh. Patterns
   * were validated with the file: compiling them cannot fail.
   */
  setFile(file: readonly WatchSpec[]): void {
    const old = this.#file;
    this.#file = file.map((w) =>
      old.find((o) => o.pattern === w.pattern && o.notify === w.notify) ??
        new Watch(w.pattern, w.notify, "file")
    );
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
   * leftmost place any pattern's prefilter matches from `from`, or -1;
   * `from` itself (every line a candidate) when a pattern has no
   * prefilter. A prefilter matches wherever its pattern does (and maybe
   * elsewhere), and has no quantifier: V8 scans a block in linear time;
   * the lines it points at are then tested in full.
   */
  find(text: string, from: number): number {
    const block = this.#block;
    if (block === null) return from; // every line is a candidate
    block.lastIndex = from;
    return block.exec(text)?.index ?? -1;
  }

  /** Tests one line: the watches that matched and, among them, those that notify; null: none. */
  test(line: string, now: number): LineMatches | null {
    if (this.#any !== null && !this.#any.test(line)) return null;
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
    const filters = all.map((w) => w.regex.prefilter);
    this.#any = this.#block = null;
    if (all.length === 0 || filters.some((f) => f === null)) return;
    // A line none of them matches matches no pattern; one that does is tested by each (its own
    // prefilter, then RE2 only where that matched).
    const source = filters.map((f) => `(?:${f})`).join("|");
    this.#any = new RegExp(source, prefilterFlags(source));
    this.#block = new RegExp(source, `g${prefilterFlags(source)}`);
  }
}
