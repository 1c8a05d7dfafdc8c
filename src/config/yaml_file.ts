/**
 * YAML text → validated value, with every problem located as file:line
 * (config.yml, manifests, project files). Pure: the caller reads the file and picks the error
 * class (ConfigError, ManifestError).
 */

import { isMap, isNode, LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import type { FileError } from "../errors.ts";
import { openedAt } from "../util/yaml_error.ts";

export type FileErrorClass = new (file: string, line: number | null, reason: string) => FileError;

export interface UnknownKey {
  /** Dotted path, e.g. `control.enabeld`. */
  readonly path: string;
  readonly line: number | null;
  /** The keys the schema knows beside it (for "did you mean"). */
  readonly known: readonly string[];
}

export interface Parsed<T> {
  readonly value: T;
  /** Keys the schema does not know, as `path (file:line)`; warn, never fail. */
  readonly unknownKeys: readonly UnknownKey[];
  /** The line of every key in the file, by dotted path (`keys.unfocus` → 3). */
  readonly keyLines: Readonly<Record<string, number>>;
}

function pathText(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === "number" ? `[${p}]` : String(p))).join(".").replace(
    /\.\[/g,
    "[",
  );
}

/**
 * Parses `text` and validates it with `schema`. Throws `ErrorClass` naming
 * the file, the line of the offending value and the reason.
 */
export function parseYaml<S extends z.ZodType>(
  text: string,
  file: string,
  schema: S,
  ErrorClass: FileErrorClass,
): Parsed<z.output<S>> {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const lineAt = (offset: number | undefined) =>
    offset === undefined ? null : lines.linePos(offset).line;
  const first = doc.errors[0];
  if (first) {
    const reason = first.message.split("\n")[0]?.replace(/ at line \d+, column \d+:?$/, "") ??
      "Invalid YAML";
    throw new ErrorClass(file, lineAt(openedAt(text, first.pos[0], reason)), reason);
  }
  const lineOf = (path: readonly PropertyKey[]): number | null => {
    for (let n = path.length; n >= 0; n--) {
      const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
      if (isNode(node) && node.range) return lineAt(node.range[0]);
    }
    return null;
  };
  let data: unknown;
  try {
    // The yaml library refuses to expand aliases past a bound (an "alias
    // bomb" — a few lines that expand to billions of nodes): one line, not a crash.
    data = doc.toJS() ?? {};
  } catch (error) {
    throw new ErrorClass(file, null, `Cannot use this YAML: ${(error as Error).message}`);
  }
  const result = schema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0];
    const path = issue?.path ?? [];
    const where = path.length ? `${pathText(path)}: ` : "";
    throw new ErrorClass(file, lineOf(path), `${where}${issue?.message ?? "Invalid value"}`);
  }
  const keyLines: Record<string, number> = {};
  collectKeyLines(doc.contents, lineAt, [], keyLines);
  return {
    value: result.data,
    unknownKeys: findUnknownKeys(doc.contents, data, result.data, lineAt),
    keyLines,
  };
}

function collectKeyLines(
  node: unknown,
  lineAt: (offset: number | undefined) => number | null,
  path: string[],
  out: Record<string, number>,
): void {
  if (!isMap(node)) return;
  for (const pair of node.items) {
    const key = isNode(pair.key)
      ? String((pair.key as { value?: unknown }).value)
      : String(pair.key);
    const keyPath = [...path, key];
    const line = isNode(pair.key) ? lineAt(pair.key.range?.[0]) : null;
    if (line !== null) out[keyPath.join(".")] = line;
    collectKeyLines(pair.value, lineAt, keyPath, out);
  }
}

/** Keys present in the YAML maps but dropped by the (stripping) schema. */
function findUnknownKeys(
  node: unknown,
  input: unknown,
  output: unknown,
  lineAt: (offset: number | undefined) => number | null,
  path: string[] = [],
): UnknownKey[] {
  if (!isMap(node) || !isPlainObject(input) || !isPlainObject(output)) return [];
  const out: UnknownKey[] = [];
  const known = Object.keys(output);
  for (const pair of node.items) {
    const key = isNode(pair.key)
      ? String((pair.key as { value?: unknown }).value)
      : String(pair.key);
    const keyPath = [...path, key];
    if (!(key in output)) {
      const range = isNode(pair.key) ? pair.key.range : undefined;
      out.push({ path: keyPath.join("."), line: lineAt(range?.[0]), known });
    } else {
      out.push(...findUnknownKeys(pair.value, input[key], output[key], lineAt, keyPath));
    }
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
