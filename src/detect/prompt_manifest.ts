/**
 * The `prompts` and `input` sections of a manifest (docs/manifests.md
 * "Prompts", "Input box"): their schema and compilation. parseManifest
 * (manifest.ts) calls these with its own error reporting, so a bad
 * pattern here is `file:line: reason` like any other.
 */

import { z } from "zod";
import type { InputReader, PromptReader } from "./prompt.ts";
import type { LinearRegex } from "./regex.ts";

const ID = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const pattern = z.string().min(1, "Empty pattern");
const patterns = z.array(pattern).default([]);
/** One pattern or a list (tried in order). */
const oneOrMore = z.union([pattern.transform((p) => [p]), z.array(pattern)]).default([]);

const readerRegion = z.union([
  z.literal("screen"),
  z.object({ bottom: z.number().int().min(1).max(500) }).strict(),
]);

export const promptSchema = z.object({
  id: z.string().regex(ID, "Prompt id must match [a-z0-9][a-z0-9_-]*"),
  region: readerRegion.default("screen"),
  any: patterns,
  all: patterns,
  not: patterns,
  question: oneOrMore,
  subject: oneOrMore,
  option: oneOrMore,
  row: pattern.optional(),
  split: pattern.optional(),
  selection: z.enum(["marker", "highlight"]).default("marker"),
  choose: z.enum(["number", "arrows"]).default("number"),
  cancel: patterns,
  approve: pattern.optional(),
  deny: pattern.optional(),
}).strict();

export const inputSchema = z.object({
  region: readerRegion.default("screen"),
  pattern: pattern,
  not: patterns,
}).strict();

type Path = readonly (string | number)[];

export interface CompileContext {
  /** Compiles one pattern (linear time, `^`/`$` at line ends), or fails naming the line of `path`. */
  regex(source: string, path: Path): LinearRegex;
  fail(path: Path, reason: string): never;
}

export function compilePrompts(
  raw: readonly z.infer<typeof promptSchema>[],
  ctx: CompileContext,
): PromptReader[] {
  const seen = new Set<string>();
  return raw.map((p, i): PromptReader => {
    const at = (...rest: (string | number)[]) => ["prompts", i, ...rest];
    if (seen.has(p.id)) ctx.fail(at("id"), `Duplicate prompt id "${p.id}"`);
    seen.add(p.id);
    if (p.any.length === 0 && p.all.length === 0) {
      ctx.fail(at(), `Prompt "${p.id}" needs at least one pattern in any or all`);
    }
    if (p.question.length === 0) ctx.fail(at(), `Prompt "${p.id}" needs a question pattern`);
    if ((p.option.length === 0) === (p.row === undefined)) {
      ctx.fail(at(), `Prompt "${p.id}" needs exactly one of option and row`);
    }
    if ((p.row === undefined) !== (p.split === undefined)) {
      ctx.fail(
        at(p.row === undefined ? "split" : "row"),
        `Prompt "${p.id}": row and split go together`,
      );
    }
    const list = (key: string, values: readonly string[]) =>
      values.map((v, j) => ctx.regex(v, values.length === 1 ? at(key) : at(key, j)));
    const one = (key: string, value: string | undefined) =>
      value === undefined ? null : ctx.regex(value, at(key));
    const question = list("question", p.question);
    const option = list("option", p.option);
    const row = one("row", p.row);
    option.forEach((re, j) => {
      if (hasGroup(re, "label")) return;
      const where = option.length === 1 ? at("option") : at("option", j);
      ctx.fail(where, `Prompt "${p.id}": option needs a (?<label>…) group`);
    });
    if (row && !hasGroup(row, "items")) {
      ctx.fail(at("row"), `Prompt "${p.id}": row needs an (?<items>…) group`);
    }
    if (
      option.length > 0 && p.choose === "number" &&
      !option.some((re) => hasGroup(re, "number") || hasGroup(re, "key"))
    ) {
      ctx.fail(at("choose"), `Prompt "${p.id}": choose number needs a (?<number>…) group`);
    }
    if (row && p.choose === "number") {
      ctx.fail(at("choose"), `Prompt "${p.id}": a row of options is chosen with arrows`);
    }
    return {
      id: p.id,
      region: p.region === "screen"
        ? { type: "screen" }
        : { type: "bottom", count: p.region.bottom },
      any: list("any", p.any),
      all: list("all", p.all),
      not: list("not", p.not),
      question,
      subject: list("subject", p.subject),
      option,
      row,
      split: one("split", p.split),
      selection: p.selection,
      choose: p.choose,
      cancel: list("cancel", p.cancel),
      approve: one("approve", p.approve),
      deny: one("deny", p.deny),
    };
  });
}

export function compileInput(
  raw: z.infer<typeof inputSchema> | undefined,
  ctx: CompileContext,
): InputReader | null {
  if (raw === undefined) return null;
  const re = ctx.regex(raw.pattern, ["input", "pattern"]);
  if (!hasGroup(re, "text")) {
    ctx.fail(["input", "pattern"], "input.pattern needs a (?<text>…) group");
  }
  return {
    region: raw.region === "screen"
      ? { type: "screen" }
      : { type: "bottom", count: raw.region.bottom },
    pattern: re,
    not: raw.not.map((source, i) => ctx.regex(source, ["input", "not", i])),
  };
}

function hasGroup(re: LinearRegex, name: string): boolean {
  return re.source.includes(`(?<${name}>`);
}
