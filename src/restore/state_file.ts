/**
 * The state file's format (docs/restore.md): what a server writes so that a
 * later server can offer its sessions back. Pure: text in, sessions and
 * problems out, and back.
 *
 * JSON Lines: a header, then one session a line. A bad line loses that line
 * only: every valid session of a damaged file is kept, and each problem is
 * one `line N: reason`. The header's `count` tells a torn file (fewer lines
 * than written) from a whole one.
 *
 * Never in the file: a value the env tab would mask (src/model/secrets.ts).
 * Such a variable is kept by name and read again from the environment when
 * the session is restored.
 */

import { z } from "zod";
import { isGroupName, isSessionName } from "../model/names.ts";
import { isSecret } from "../model/secrets.ts";
import { RESTORED_RULE } from "../model/restored.ts";

export const STATE_VERSION = 1;

/** Rows of a session's last screen kept at most (its bottom rows), and their width. */
export const SCREEN_ROWS = 100;
export const SCREEN_COLS = 500;

const path = z.string().min(1).max(4096).refine((p) => p.startsWith("/"), "Not absolute");

const envSchema = z.union([
  z.object({ name: z.string().min(1).max(256), value: z.string().max(64 * 1024) }),
  z.object({ name: z.string().min(1).max(256), secret: z.literal(true) }),
]);

const sessionSchema = z.object({
  name: z.string().refine(isSessionName, "Invalid session name"),
  group: z.string().refine(isGroupName, "Invalid group name").nullable(),
  cwd: path,
  /** null: the shell itself. */
  command: z.string().min(1).max(64 * 1024).nullable(),
  origin: path.nullable().default(null),
  env: z.array(envSchema).max(1024).default([]),
  watch: z.array(z.object({ pattern: z.string().min(1).max(512), notify: z.boolean() })).max(64)
    .default([]),
  watcher: z.string().min(1).max(512).nullable().default(null),
  agent: z.string().min(1).max(64).nullable().default(null),
  conversation: z.object({
    agent: z.string().min(1).max(64).nullable(),
    id: z.string().min(1).max(128),
    source: z.string().max(256),
    cwd: path.nullable(),
    transcript: path.nullable(),
  }).nullable().default(null),
  screen: z.array(z.string().max(SCREEN_COLS)).max(SCREEN_ROWS).default([]),
  /** Saved by an earlier server and not restored (nor dismissed) yet. */
  pending: z.boolean().default(false),
  /**
   * Its pending resume at a usage limit (docs/limits.md, "Across restarts"): the resume
   * machine's state (src/limits/resume.ts `toJson`), checked again by `fromJson` at restore.
   */
  limitResume: z.record(z.string(), z.unknown()).nullable().default(null),
  /** Its own resume policy at usage limits (`ctl limit --policy`, `P`), null: none set. */
  resumePolicy: z.enum(["off", "ask", "auto"]).nullable().default(null),
  /** Its group's resume policy when the file was written, null: none set. */
  groupResumePolicy: z.enum(["off", "ask", "auto"]).nullable().default(null),
});

export type SavedSession = z.output<typeof sessionSchema>;
export type SavedEnv = SavedSession["env"][number];

const headerSchema = z.object({
  lazyshell: z.literal("sessions"),
  version: z.number().int().min(1),
  count: z.number().int().min(0),
  written: z.number(),
});

export interface ParsedState {
  readonly sessions: readonly SavedSession[];
  /** `line N: reason`, one per problem; empty for a whole, valid file. */
  readonly problems: readonly string[];
  /** When the file was written (epoch ms), if its header says. */
  readonly written: number | null;
}

/** Reads a state file's text; never throws. */
export function parseState(text: string): ParsedState {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const problems: string[] = [];
  const sessions: SavedSession[] = [];
  const names = new Set<string>();
  let header: z.output<typeof headerSchema> | null = null;
  lines.forEach((line, i) => {
    const at = `line ${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return problems.push(`${at}: not JSON`);
    }
    if (i === 0) {
      const h = headerSchema.safeParse(value);
      if (h.success) return (header = h.data);
      problems.push(`${at}: not a lazyshell state header`);
    }
    const s = sessionSchema.safeParse(value);
    if (!s.success) return problems.push(`${at}: ${issue(s.error)}`);
    if (names.has(s.data.name)) return problems.push(`${at}: a second session ${s.data.name}`);
    names.add(s.data.name);
    sessions.push(s.data);
  });
  const h = header as z.output<typeof headerSchema> | null;
  if (h !== null && lines.length - 1 < h.count) {
    problems.push(`torn: ${lines.length - 1} of ${h.count} session lines`);
  }
  if (lines.length === 0) problems.push("empty file");
  return { sessions, problems, written: h?.written ?? null };
}

function issue(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return "invalid";
  const where = first.path.map(String).join(".");
  return where ? `${where}: ${first.message}` : first.message;
}

/** The file's text for these sessions. */
export function formatState(sessions: readonly SavedSession[], written: number): string {
  const header = { lazyshell: "sessions", version: STATE_VERSION, count: sessions.length, written };
  return [header, ...sessions].map((line) => JSON.stringify(line)).join("\n") + "\n";
}

/** A session's env additions as the file keeps them: a masked value only by name. */
export function savedEnv(added: Readonly<Record<string, string>>): SavedEnv[] {
  return Object.entries(added).map(([name, value]) =>
    isSecret(name, value) ? { name, secret: true as const } : { name, value }
  );
}

/** The rule a restored session shows under its old screen (src/restore/plan.ts). */
export { RESTORED_RULE };

/**
 * The last screen as kept: trailing blanks and empty edge rows trimmed,
 * bounded; an old screen still shown above a restore's rule is not kept twice.
 */
export function savedScreen(lines: readonly string[]): string[] {
  const rows = lines.map((l) => l.trimEnd().slice(0, SCREEN_COLS));
  let start = rows.lastIndexOf(RESTORED_RULE) + 1;
  let end = rows.length;
  while (start < end && rows[start] === "") start++;
  while (end > start && rows[end - 1] === "") end--;
  return rows.slice(Math.max(start, end - SCREEN_ROWS), end);
}
