/**
 * The `rules` of a manifest (docs/manifests.md, "Rules"): what a rule is once compiled, its
 * schema, and its compilation (kinds checked against the state, colour conditions' locators,
 * patterns joined into one scan). parseManifest (manifest.ts) calls compileRules with its own
 * error reporting, so a bad rule is `file:line: reason` like any other.
 */

import { z } from "zod";
import { messageOf } from "../errors.ts";
import { AGENT_STATES, kindsOf, STATE_KINDS } from "../model/agent.ts";
import type { AgentStateName, StateKind } from "../model/agent.ts";
import { colorsTest, type ColorTest } from "./colors.ts";
import { type LinearRegex, unionOf } from "./regex.ts";

/** Where a rule looks. */
export type Region =
  | { readonly type: "screen" }
  | { readonly type: "title" }
  /** The last `bottom` non-empty visible rows. */
  | { readonly type: "bottom"; readonly count: number }
  /** The first `top` non-empty visible rows. */
  | { readonly type: "top"; readonly count: number };

/** A colour condition: a match of `re` in a row whose first character's colour passes `fg`. */
export interface CellCondition {
  /**
   * A locator: no quantifier, group or alternation (checked at load), so V8
   * finds it in time linear in the row; global, every match is tried.
   */
  readonly re: RegExp;
  readonly fg: ColorTest;
}

export interface CompiledRule {
  readonly id: string;
  readonly state: AgentStateName;
  /** The kind when no `kinds` entry matches. */
  readonly kind: StateKind | null;
  /** Ordered: the first kind one of whose patterns matches the message (or the region). */
  readonly kinds: readonly { readonly kind: StateKind; readonly any: readonly LinearRegex[] }[];
  readonly region: Region;
  /** The `any` list, joined into one alternation when possible (one scan). */
  readonly any: readonly LinearRegex[];
  readonly all: readonly LinearRegex[];
  /** The `not` list, joined like `any`. */
  readonly not: readonly LinearRegex[];
  /** Colour conditions, each of which must hold in some row of the region. */
  readonly cells: readonly CellCondition[];
  /**
   * Where the message comes from once the rule matched: the `all` and `any`
   * patterns with a `msg` group, then the `msg` list — tried first on the row
   * where a colour condition held (from the match on), then on the region
   * text; the first match gives it (group `msg`, else the whole match).
   */
  readonly msg: readonly LinearRegex[];
  /**
   * Where a usage limit's reset time is written (docs/limits.md): the first
   * pattern that matches the region gives it (group `resets`, else the whole match).
   */
  readonly resets: readonly LinearRegex[];
  /** A menu that needs the user: overrides a stale hook `working` (docs/detection.md). */
  readonly visibleBlocker: boolean;
}

/** An id: an agent's, a rule's. */
export const ID = /^[a-z0-9][a-z0-9_-]{0,31}$/;

export const regexList = z.array(z.string().min(1, "Empty pattern")).default([]);

const regionSchema = z.union([
  z.enum(["screen", "title"]),
  z.object({ bottom: z.number().int().min(1).max(500) }).strict(),
  z.object({ top: z.number().int().min(1).max(500) }).strict(),
]);

const colorSpec = z.union([z.string().min(1), z.number().int()]);

const cellSchema = z.object({
  match: z.string().min(1, "Empty pattern"),
  fg: z.union([colorSpec, z.array(colorSpec).min(1)]),
}).strict();

export const ruleSchema = z.object({
  id: z.string().regex(ID, "Rule id must match [a-z0-9][a-z0-9_-]*"),
  state: z.enum(AGENT_STATES),
  kind: z.enum(STATE_KINDS as unknown as [StateKind, ...StateKind[]]).optional(),
  // Keys are checked against the rule's state in compileRules (a zod enum record would demand them all).
  kinds: z.record(z.string(), z.union([z.string().min(1, "Empty pattern"), regexList]))
    .optional(),
  region: regionSchema.default("screen"),
  any: regexList,
  all: regexList,
  not: regexList,
  cells: z.array(cellSchema).default([]),
  msg: regexList,
  resets: regexList,
  visible_blocker: z.boolean().default(false),
}).strict();

type Path = readonly (string | number)[];

/** How parseManifest reports a rule's errors, and compiles its patterns. */
export interface RuleContext {
  /** Compiles one pattern (linear time), or fails naming the line of `path`. */
  regex(source: string, path: Path): LinearRegex;
  /** The line of the YAML node at `path`, or null. */
  lineOf(path: Path): number | null;
  fail(line: number | null, reason: string): never;
}

/** The rules compiled, in order; the first error is `ctx`'s to report. */
export function compileRules(
  raw: readonly z.infer<typeof ruleSchema>[],
  ctx: RuleContext,
): CompiledRule[] {
  const { regex, lineOf, fail } = ctx;
  const compile = (patterns: readonly string[], path: Path): LinearRegex[] =>
    patterns.map((p, i) => regex(p, [...path, i]));
  const seen = new Set<string>();
  return raw.map((r, i): CompiledRule => {
    const at = (key: string) => lineOf(["rules", i, key]) ?? lineOf(["rules", i]);
    if (seen.has(r.id)) fail(at("id"), `Duplicate rule id "${r.id}"`);
    seen.add(r.id);
    const allowed = kindsOf(r.state);
    const badKind = (k: string) =>
      `Rule "${r.id}": kind ${k} is not one of state ${r.state}` +
      (allowed.length ? ` (${allowed.join(", ")})` : " (only blocked and error have kinds)");
    if (r.kind !== undefined && !allowed.includes(r.kind)) fail(at("kind"), badKind(r.kind));
    for (const k of Object.keys(r.kinds ?? {})) {
      if (!allowed.includes(k as StateKind)) fail(lineOf(["rules", i, "kinds", k]), badKind(k));
    }
    if (r.any.length === 0 && r.all.length === 0 && r.cells.length === 0) {
      fail(lineOf(["rules", i]), `Rule "${r.id}" needs at least one pattern in any, all or cells`);
    }
    if (r.visible_blocker && r.state !== "blocked") {
      fail(at("visible_blocker"), `Rule "${r.id}": visible_blocker needs state blocked`);
    }
    if (r.resets.length > 0 && r.state !== "error") {
      fail(at("resets"), `Rule "${r.id}": resets needs state error (a usage limit)`);
    }
    if (r.cells.length > 0 && r.region === "title") {
      fail(at("cells"), `Rule "${r.id}": cells need screen rows (region screen, bottom or top)`);
    }
    const any = compile(r.any, ["rules", i, "any"]);
    const all = compile(r.all, ["rules", i, "all"]);
    const not = compile(r.not, ["rules", i, "not"]);
    const cells = r.cells.map((c, j): CellCondition => {
      const path = ["rules", i, "cells", j];
      let fg: ColorTest;
      try {
        fg = colorsTest(c.fg);
      } catch (error) {
        return fail(lineOf([...path, "fg"]), `Rule "${r.id}": ${messageOf(error)}`);
      }
      const why = locatorError(c.match);
      if (why !== null) {
        fail(
          lineOf([...path, "match"]),
          `Rule "${r.id}": cells match ${JSON.stringify(c.match)}: ${why}`,
        );
      }
      regex(c.match, [...path, "match"]); // the same syntax as every pattern
      return { re: new RegExp(c.match, "gu"), fg };
    });
    const withMsg = (list: readonly LinearRegex[]) =>
      list.filter((re) => /\(\?<msg>/.test(re.source));
    const kinds = Object.entries(r.kinds ?? {}).map(([kind, patterns]) => ({
      kind: kind as StateKind,
      any: alternation(
        compile(typeof patterns === "string" ? [patterns] : patterns, ["rules", i, "kinds", kind]),
      ),
    }));
    return {
      id: r.id,
      state: r.state,
      kind: r.kind ?? null,
      kinds,
      region: typeof r.region === "string"
        ? { type: r.region }
        : "top" in r.region
        ? { type: "top", count: r.region.top }
        : { type: "bottom", count: r.region.bottom },
      any: alternation(any),
      all,
      not: alternation(not),
      cells,
      msg: [
        ...withMsg(all),
        ...withMsg(any),
        ...compile(r.msg, ["rules", i, "msg"]),
      ],
      resets: compile(r.resets, ["rules", i, "resets"]),
      visibleBlocker: r.visible_blocker,
    };
  });
}

/**
 * Why `source` cannot be a colour condition's locator (a quantifier, a group
 * or an alternation: V8 would not be linear on it), or null.
 */
function locatorError(source: string): string | null {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\") {
      i++;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
    } else if (c === "[") {
      inClass = true;
    } else if ("*+?{".includes(c)) {
      return `a locator has no quantifier (${c}); read the message with a msg pattern`;
    } else if ("(|".includes(c)) {
      return `a locator has no group or alternation (${c}); read the message with a msg pattern`;
    }
  }
  return null;
}

/** One regex testing every pattern of a list (one scan instead of many) when they combine. */
function alternation(list: readonly LinearRegex[]): LinearRegex[] {
  const union = unionOf(list, true);
  return union === null ? [...list] : [union];
}
