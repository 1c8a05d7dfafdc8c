/**
 * User-supplied regexes (manifest rules, watchers) matched in linear time
 * (docs/manifests.md "Regexes": `(a+)+$` against `aaaa…a!` hung the server in V8's
 * backtracking engine). Every pattern is judged by RE2 (re2js: a pure-JS
 * port of RE2, linear in the text whatever the pattern). RE2 is slower
 * than V8 on text with no literal to skip to, so each pattern also gets a
 * prefilter run by V8: a part of it with no quantifier — which a
 * backtracking engine matches in linear time too — that every match must
 * contain (e.g. `timeout after ` for `timeout after \d+ ?ms`). Text the
 * prefilter rejects never reaches RE2; most screens and log lines stop there.
 *
 * Syntax is JavaScript's, less what has no linear-time algorithm —
 * lookahead (`(?=`, `(?!`) and back-references (`\1`, `\k<name>`) are
 * refused with the reason — plus RE2's `\A` / `\z` (start / end of text)
 * and inline flags (`(?i)`); regex_syntax.ts reads it into RE2's. This file
 * compiles, matches and picks the prefilter. docs/manifests.md lists the
 * differences. Pure.
 */

import { RE2JS } from "re2js";
import { type Item, PatternParser, RegexError } from "./regex_syntax.ts";

export { RegexError } from "./regex_syntax.ts";

/** One match: its text and place, and each named group's (undefined: the group took no part). */
export interface RegexMatch {
  readonly text: string;
  readonly index: number;
  readonly groups: Readonly<Record<string, string | undefined>>;
  /** Where each named group starts in the text (UTF-16 units, as String indices). */
  readonly starts: Readonly<Record<string, number | undefined>>;
}

/** What a compiled pattern can do (RegExp's `test`, and a search for watchers' blocks). */
export interface LinearRegex {
  readonly source: string;
  test(text: string): boolean;
  /** The first match, with its named groups (prompt readers, src/detect/prompt.ts). */
  exec(text: string): RegexMatch | null;
  /** Every match from the left, not overlapping (RegExp's matchAll). */
  matches(text: string): RegexMatch[];
  /**
   * Linear-time V8 source that matches (with prefilterFlags) wherever this
   * pattern does, and maybe elsewhere; null when the pattern has no useful one.
   */
  readonly prefilter: string | null;
}

/** Compiles `pattern`; `multiline`: `^`/`$` at line ends (manifest rules). Throws RegexError. */
export function compileRegex(pattern: string, multiline = false): LinearRegex {
  const parsed = new PatternParser(pattern).parse();
  return build(pattern, parsed.re2, parsed.opaque ? null : prefilterOf(parsed.tree), multiline);
}

/** One pattern matching wherever any of `list` does (one scan for a rule's `any` list). */
export function unionOf(list: readonly LinearRegex[], multiline = false): LinearRegex | null {
  if (list.length === 0) return null;
  if (list.length === 1) return list[0]!;
  const parts = list.map((r) => (r as Compiled).re2Source);
  const filters = list.map((r) => r.prefilter);
  const prefilter = filters.every((f) => f !== null)
    ? filters.map((f) => `(?:${f})`).join("|")
    : null;
  try {
    return build(
      list.map((r) => `(?:${r.source})`).join("|"),
      parts.map((p) => `(?:${p})`).join("|"),
      prefilter,
      multiline,
    );
  } catch {
    return null; // e.g. the same group name twice: test them one by one
  }
}

interface Compiled extends LinearRegex {
  readonly re2Source: string;
}

function build(
  source: string,
  re2Source: string,
  prefilter: string | null,
  multiline: boolean,
): Compiled {
  let re2: RE2JS;
  try {
    re2 = RE2JS.compile(re2Source, RE2JS.LOOKBEHINDS | (multiline ? RE2JS.MULTILINE : 0));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new RegexError(message.replace(/^error parsing regexp: /, "").replace(/`/g, ""));
  }
  const v8 = prefilter === null ? null : new RegExp(prefilter, prefilterFlags(prefilter));
  const names = Object.keys(re2.namedGroups());
  const matches = (text: string, first: boolean): RegexMatch[] => {
    if (v8 !== null && !v8.test(text)) return [];
    const m = re2.matcher(text);
    const out: RegexMatch[] = [];
    let from = 0;
    while (from <= text.length && m.find(from)) {
      const groups: Record<string, string | undefined> = {};
      const starts: Record<string, number | undefined> = {};
      for (const name of names) {
        const at = m.start(name);
        groups[name] = at < 0 ? undefined : m.group(name) ?? undefined;
        starts[name] = at < 0 ? undefined : at;
      }
      out.push({ text: m.group() ?? "", index: m.start(), groups, starts });
      if (first) break;
      from = m.end() > m.start() ? m.end() : m.end() + 1; // an empty match moves on
    }
    return out;
  };
  return {
    source,
    re2Source,
    prefilter,
    test: v8 === null ? (text) => re2.test(text) : (text) => v8.test(text) && re2.test(text),
    exec: (text) => matches(text, true)[0] ?? null,
    matches: (text) => matches(text, false),
  };
}

/**
 * V8 flags for a prefilter: `u` only where it changes what matches (a `.`,
 * a negated class or a property escape must take a whole astral character;
 * a surrogate pair inside a class is one member) — V8 scans faster without.
 */
export function prefilterFlags(source: string): string {
  return /\.|\[\^|\\[SWDpP]|\\u[dD][89abAB]/.test(source) ? "mu" : "m";
}

/**
 * The prefilter of an alternation: each branch's best run (below), joined;
 * null when a branch has none worth testing. Contains no quantifier, so V8
 * matches it in time linear in the text.
 */
function prefilterOf(branches: readonly Item[][]): string | null {
  const runs: string[] = [];
  for (const branch of branches) {
    const run = bestRun(branch);
    if (run === null) return null;
    runs.push(run);
  }
  return runs.length === 1 ? runs[0]! : runs.map((r) => `(?:${r})`).join("|");
}

/**
 * The heaviest run of consecutive items every match of `seq` contains:
 * unquantified items in a row, unquantified single-branch groups looked
 * into; a quantified item with a minimum of one or more adds one copy of
 * itself and ends the run, one that may be absent just ends it.
 */
function bestRun(seq: readonly Item[]): string | null {
  let best: { source: string; weight: number } | null = null;
  let run = "";
  let weight = 0;
  const end = () => {
    if (weight > (best?.weight ?? 1)) best = { source: run, weight };
    run = "";
    weight = 0;
  };
  const walk = (items: readonly Item[]) => {
    for (const it of items) {
      if (it.branches && it.branches.length === 1 && !it.quantified) {
        walk(it.branches[0]!);
        continue;
      }
      if (it.v8 === null || it.min === 0) {
        end();
        continue;
      }
      run += it.v8;
      weight += it.weight;
      if (it.quantified) end();
    }
  };
  walk(seq);
  end();
  return (best as { source: string } | null)?.source ?? null;
}
