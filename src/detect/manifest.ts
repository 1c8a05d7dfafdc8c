/**
 * Agent manifests (docs/manifests.md): YAML text → a validated,
 * compiled manifest, or a ManifestError naming the file, the line and the
 * reason. Pure: reading files is the caller's (src/runtime/catalog.ts).
 */

import { isMap, isScalar, isSeq, LineCounter, parseDocument } from "yaml";
import { z } from "zod";
import { ManifestError, messageOf } from "../errors.ts";
import { openedAt } from "../util/yaml_error.ts";
import { parseStoreTemplate, type StoreTemplate } from "./store_template.ts";
import { compileRegex, type LinearRegex, RegexError } from "./regex.ts";
import type { InputReader, PromptReader } from "./prompt.ts";
import { compileInput, compilePrompts, inputSchema, promptSchema } from "./prompt_manifest.ts";
import { type CompiledRule, compileRules, ID, regexList, ruleSchema } from "./rule_manifest.ts";

export interface AgentIdentityHints {
  readonly processes: readonly string[];
  readonly scripts: readonly string[];
  readonly packages: readonly string[];
  /** Title patterns naming the agent (for `lazyshell detect` without --agent). */
  readonly title: readonly LinearRegex[];
  /** Screen patterns naming the agent (same use). */
  readonly screen: readonly LinearRegex[];
}

/** How to start the agent again on one of its conversations (docs/manifests.md, "Resume"). */
export interface ResumeSpec {
  /** A shell command line; `{id}` stands for the conversation id (inserted shell-quoted). */
  readonly command: string;
  /** Where the agent keeps its conversations, or null (only hooks say which one runs). */
  readonly store: ConversationStoreSpec | null;
}

/**
 * The agent's own conversation store (docs/manifests.md, "Conversation
 * store"): conversation files, each named by its first records, or a SQLite
 * table; and a file the agent keeps per running process, when it has one.
 */
export interface ConversationStoreSpec {
  /** Conversation files (`.jsonl`: records a line; else one JSON document). */
  readonly files: StoreTemplate | null;
  /** The key paths of a file's records: the id, the agent's cwd, when it was created. */
  readonly id: string;
  readonly cwd: string;
  readonly created: string | null;
  /** A SQLite database, and the query listing its conversations (columns id, cwd, created, modified). */
  readonly sqlite: StoreTemplate | null;
  readonly query: string | null;
  /** The file the agent writes for each of its processes (`{pid}`), naming its conversation. */
  readonly process: {
    readonly file: StoreTemplate;
    readonly id: string;
    /** The key holding the process's start time (clock ticks since boot), or null. */
    readonly start: string | null;
  } | null;
}

/** What the agent does at a usage limit (docs/limits.md, "Resume at the reset"). */
export interface LimitSpec {
  /** On screen: the agent goes on by itself at the reset; lazyshell types nothing. */
  readonly continues: readonly LinearRegex[];
  /** On screen: the agent's own continue was cancelled; the resume policy applies. */
  readonly cancelled?: readonly LinearRegex[];
  /** On screen: a dialog sits beside the limit (keys would go to it). */
  readonly dialog: readonly LinearRegex[];
  /** Keys (names: esc, enter, a digit) that close that dialog before typing. */
  readonly dismiss: readonly string[];
}

export interface Manifest {
  readonly id: string;
  readonly name: string;
  readonly identity: AgentIdentityHints;
  /** How `lazyshell restore` resumes a conversation, or null (the agent restarts fresh). */
  readonly resume: ResumeSpec | null;
  /** What a screen `working` → `idle` change means when no rule says `done`. */
  readonly turnEnd: "idle" | "done";
  readonly rules: readonly CompiledRule[];
  /** How to read what a blocked screen asks (prompt.ts), in order. */
  readonly prompts: readonly PromptReader[];
  /** Where the input box is (ctl send receipts), or null. */
  readonly input: InputReader | null;
  /** Where it came from (file path or `builtin:<name>`). */
  readonly source: string;
  /** What it does at a usage limit; absent: nothing known (lazyshell types the continue text). */
  readonly limit?: LimitSpec;
}

/** A key path into a JSON record: `sessionId`, `payload.cwd`. */
const keyPath = z.string().regex(
  /^[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*)*$/,
  "A key path like payload.id",
);

const storeSchema = z.object({
  files: z.string().min(1).optional(),
  id: keyPath.default("id"),
  cwd: keyPath.default("cwd"),
  created: keyPath.optional(),
  sqlite: z.string().min(1).optional(),
  query: z.string().trim().regex(/^select\b/i, "The query is one SELECT").optional(),
  process: z.object({
    file: z.string().min(1),
    id: keyPath.default("id"),
    start: keyPath.optional(),
  }).strict().optional(),
}).strict()
  .refine((s) => (s.files === undefined) !== (s.sqlite === undefined), {
    message: "A store has files or sqlite (one of them)",
  })
  .refine((s) => (s.sqlite === undefined) === (s.query === undefined), {
    message: "A sqlite store needs its query (and only it has one)",
  });

const manifestSchema = z.object({
  id: z.string().regex(ID, "Agent id must match [a-z0-9][a-z0-9_-]{0,31}"),
  name: z.string().min(1).optional(),
  identity: z.object({
    processes: z.array(z.string().min(1)).default([]),
    scripts: z.array(z.string().min(1)).default([]),
    packages: z.array(z.string().min(1)).default([]),
    title: regexList,
    screen: regexList,
  }).strict().default({ processes: [], scripts: [], packages: [], title: [], screen: [] }),
  turn_end: z.enum(["idle", "done"]).default("idle"),
  resume: z.object({
    command: z.string().trim().min(1).refine(
      (c) => c.includes("{id}"),
      "The resume command needs {id} where the conversation id goes",
    ),
    store: storeSchema.optional(),
  }).strict().optional(),
  rules: z.array(ruleSchema).default([]),
  limit: z.object({
    continues: regexList,
    cancelled: regexList,
    dialog: regexList,
    dismiss: z.array(z.enum(["esc", "enter", "tab", "1", "2", "3", "4", "5", "6", "7", "8", "9"]))
      .default([]),
  }).strict().optional(),
  prompts: z.array(promptSchema).default([]),
  input: inputSchema.optional(),
}).strict();

type Path = readonly (string | number)[];

/** A store's templates parsed (a bad one fails at its key's line). */
function compileStore(
  store: z.infer<typeof storeSchema> | undefined,
  ctx: { fail: (path: Path, reason: string) => never },
): ConversationStoreSpec | null {
  if (store === undefined) return null;
  const template = (source: string, path: Path): StoreTemplate => {
    try {
      return parseStoreTemplate(source);
    } catch (error) {
      return ctx.fail(path, `Invalid store path ${JSON.stringify(source)}: ${messageOf(error)}`);
    }
  };
  const at = (...keys: string[]): Path => ["resume", "store", ...keys];
  return {
    files: store.files === undefined ? null : template(store.files, at("files")),
    id: store.id,
    cwd: store.cwd,
    created: store.created ?? null,
    sqlite: store.sqlite === undefined ? null : template(store.sqlite, at("sqlite")),
    query: store.query ?? null,
    process: store.process === undefined ? null : {
      file: template(store.process.file, at("process", "file")),
      id: store.process.id,
      start: store.process.start ?? null,
    },
  };
}

/**
 * Parses one manifest. `file` names it in errors; `expectedId` (the file
 * name without `.yml`) must equal `id` when given.
 */
export function parseManifest(text: string, file: string, expectedId?: string): Manifest {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const fail = (line: number | null, reason: string): never => {
    throw new ManifestError(file, line, reason);
  };
  const first = doc.errors[0];
  if (first) {
    const reason = firstLine(first.message);
    fail(lines.linePos(openedAt(text, first.pos[0], reason)).line, `Invalid YAML: ${reason}`);
  }
  const lineOf = (path: Path): number | null => {
    const node = nodeAt(doc.contents, path);
    const range = node?.range;
    return range ? lines.linePos(range[0]).line : null;
  };
  const raw = doc.toJS();
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    fail(1, "A manifest is a mapping with id, identity and rules");
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.filter((p): p is string | number => typeof p !== "symbol");
    const key = issue.code === "unrecognized_keys" ? issue.keys[0] : undefined;
    const where = key === undefined ? path : [...path, key];
    fail(
      lineOf(where) ?? lineOf(path) ?? lineOf(path.slice(0, -1)),
      describeIssue(path, issue.message),
    );
  }
  const m = parsed.data!;
  if (expectedId !== undefined && m.id !== expectedId) {
    fail(lineOf(["id"]), `Manifest id "${m.id}" does not match its file name "${expectedId}"`);
  }
  // Linear-time matching (regex.ts): a pattern it cannot take is refused here, with the reason.
  const regex = (p: string, path: Path): LinearRegex => {
    try {
      return compileRegex(p, true);
    } catch (error) {
      if (!(error instanceof RegexError)) throw error;
      return fail(lineOf(path), `Invalid regex ${JSON.stringify(p)}: ${error.message}`);
    }
  };
  const compile = (patterns: readonly string[], path: Path): LinearRegex[] =>
    patterns.map((p, i) => regex(p, [...path, i]));
  const ctx = {
    regex,
    fail: (path: Path, reason: string): never =>
      fail(lineOf(path) ?? lineOf(path.slice(0, -1)) ?? lineOf(path.slice(0, -2)), reason),
  };
  const rules = compileRules(m.rules, { regex, lineOf, fail });
  return {
    id: m.id,
    name: m.name ?? m.id,
    identity: {
      processes: m.identity.processes,
      scripts: m.identity.scripts,
      packages: m.identity.packages,
      title: compile(m.identity.title, ["identity", "title"]),
      screen: compile(m.identity.screen, ["identity", "screen"]),
    },
    turnEnd: m.turn_end,
    resume: m.resume
      ? { command: m.resume.command, store: compileStore(m.resume.store, ctx) }
      : null,
    rules,
    ...(m.limit
      ? {
        limit: {
          continues: compile(m.limit.continues, ["limit", "continues"]),
          cancelled: compile(m.limit.cancelled, ["limit", "cancelled"]),
          dialog: compile(m.limit.dialog, ["limit", "dialog"]),
          dismiss: m.limit.dismiss,
        },
      }
      : {}),
    prompts: compilePrompts(m.prompts, ctx),
    input: compileInput(m.input, ctx),
    source: file,
  };
}

function describeIssue(path: Path, message: string): string {
  const where = path.length === 0 ? "" : `${formatPath(path)}: `;
  return `${where}${message}`;
}

function formatPath(path: Path): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}

function firstLine(message: string): string {
  return (message.split("\n")[0] ?? message).replace(/\.$/, "");
}

/** The YAML node at `path`, or null. */
function nodeAt(root: unknown, path: Path): { range?: [number, number, number] } | null {
  let node: unknown = root;
  for (const key of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && p.key.value === key);
      if (!pair) return null;
      node = pair.value ?? pair.key;
    } else if (isSeq(node) && typeof key === "number") {
      node = node.items[key];
    } else {
      return null;
    }
  }
  return (node as { range?: [number, number, number] } | null) ?? null;
}
