/**
 * The project file (README: Project file): `lazyshell.yml` in the cwd, or `--project
 * FILE`, declares sessions to start at launch — name, command, cwd
 * (relative to the file), group, env, and pattern watchers (W2).
 *
 * Pure: the caller reads the file and says how to check a directory. Every
 * problem — bad YAML, an unknown key, a wrong type, a duplicate name, a
 * missing cwd, an invalid regex — is a ConfigError naming file, line and
 * reason, found before anything starts.
 */

import { compileRegex, RegexError } from "../detect/regex.ts";
import { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument } from "yaml";
import { z } from "zod";
import { ConfigError } from "../errors.ts";
import { parseYaml } from "./yaml_file.ts";
import {
  GROUP_NAME_RULE,
  isGroupName,
  isReservedName,
  isSessionName,
  SESSION_NAME_RULE,
} from "../model/names.ts";

export { PROJECT_FILE, resolvePath } from "./project_path.ts";
import { resolvePath } from "./project_path.ts";

export interface ProjectWatch {
  readonly pattern: string;
  readonly notify: boolean;
}

export interface ProjectSession {
  readonly name: string;
  /** Run through `$SHELL -c`; null: the shell itself. */
  readonly command: string | null;
  /** Absolute. */
  readonly cwd: string;
  readonly group: string | null;
  readonly env: Readonly<Record<string, string>>;
  readonly watch: readonly ProjectWatch[];
  /** Line of this entry in the file (errors found while starting it). */
  readonly line: number | null;
}

export interface Project {
  readonly file: string;
  readonly sessions: readonly ProjectSession[];
}

export interface ProjectContext {
  /** Directory relative cwds are resolved against (the file's). */
  readonly baseDir: string;
  /** Whether a path is an existing directory. */
  readonly isDirectory: (path: string) => boolean;
}

/** Checked as watchers compile it (detect/regex.ts: linear time, so no lookahead or back-reference). */
const regex = z.string().min(1, "Empty pattern").superRefine((pattern, ctx) => {
  try {
    compileRegex(pattern);
  } catch (error) {
    if (!(error instanceof RegexError)) throw error;
    ctx.addIssue({
      code: "custom",
      message: `Invalid pattern ${JSON.stringify(pattern)}: ${error.message}`,
    });
  }
});

const envValue = z.union([z.string(), z.number(), z.boolean()]).transform(String);

function schema(context: ProjectContext) {
  const session = z.object({
    name: z.string().trim().refine(isSessionName, `Invalid session name (${SESSION_NAME_RULE})`)
      .refine((n) => !isReservedName(n), "Names of the form session-N are reserved for ids"),
    command: z.string().trim().min(1).nullable().default(null),
    cwd: z.string().min(1).optional().transform((cwd, ctx) => {
      const abs = resolvePath(context.baseDir, cwd ?? ".");
      if (!context.isDirectory(abs)) {
        ctx.addIssue({ code: "custom", message: `Directory does not exist: ${abs}` });
      }
      return abs;
    }),
    group: z.string().refine(isGroupName, `Invalid group name (${GROUP_NAME_RULE})`).nullable()
      .default(null),
    env: z.record(
      z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "Invalid variable name"),
      envValue,
    ).default({}),
    watch: z.array(z.object({
      pattern: regex,
      notify: z.boolean().default(true),
    })).default([]),
  });
  return z.object({ sessions: z.array(session).default([]) }).superRefine((project, ctx) => {
    const seen = new Set<string>();
    project.sessions.forEach((s, i) => {
      if (seen.has(s.name)) {
        ctx.addIssue({
          code: "custom",
          path: ["sessions", i, "name"],
          message: `Duplicate session name ${s.name}`,
        });
      }
      seen.add(s.name);
    });
  });
}

/** Parses and validates a project file; throws ConfigError (file:line: reason). */
export function parseProject(text: string, file: string, context: ProjectContext): Project {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter });
  const lineAt = (node: unknown) =>
    isNode(node) && node.range ? counter.linePos(node.range[0]).line : null;
  if (doc.errors.length === 0) checkKeys(doc.contents, file, lineAt);
  const { value } = parseYaml(text, file, schema(context), ConfigError);
  return {
    file,
    sessions: value.sessions.map((s, i) => ({
      ...s,
      line: lineAt(doc.getIn(["sessions", i], true)),
    })),
  };
}

const TOP_KEYS = new Set(["sessions"]);
const SESSION_KEYS = new Set(["name", "command", "cwd", "group", "env", "watch"]);
const WATCH_KEYS = new Set(["pattern", "notify"]);

/** Unknown keys are errors here (a typo must not silently drop a session's setting). */
function checkKeys(
  root: unknown,
  file: string,
  lineAt: (node: unknown) => number | null,
): void {
  const check = (node: unknown, allowed: Set<string>, path: string) => {
    if (!isMap(node)) return;
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      if (!allowed.has(key)) {
        const known = [...allowed].join(", ");
        throw new ConfigError(
          file,
          lineAt(pair.key),
          `Unknown key ${path}${path ? "." : ""}${key} (expected one of: ${known})`,
        );
      }
    }
  };
  check(root, TOP_KEYS, "");
  const sessions = isMap(root) ? root.get("sessions", true) : undefined;
  if (!isSeq(sessions)) return;
  sessions.items.forEach((entry, i) => {
    check(entry, SESSION_KEYS, `sessions[${i}]`);
    const watch = isMap(entry) ? entry.get("watch", true) : undefined;
    if (!isSeq(watch)) return;
    watch.items.forEach((w, j) => check(w, WATCH_KEYS, `sessions[${i}].watch[${j}]`));
  });
}

/** POSIX path join + normalisation (`a/./b/../c` → `a/c`), `~` left alone. */
