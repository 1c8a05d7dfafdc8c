/**
 * `diff TARGET [--base REF] [--stat]`: what the session's worktree (or
 * folder) changed since its branch point — the changed files with their
 * status, and the unified diff, untracked files included (docs/changes.md).
 * The diff is cut at DIFF_MAX_BYTES (JSON-encoded; `truncated: true`).
 */

import { type ChangedFile, readChanges } from "../../git/changes.ts";
import { formatStat, parseUnifiedDiff, STATUS_LETTER } from "../../git/parse.ts";
import { defineVerb, flag, str, TARGET_ARG } from "../verb.ts";
import { resolveTarget } from "../targets.ts";
import { label } from "../entry.ts";

/** The diff text in one reply, JSON-encoded (the reply line is at most 1 MiB). */
export const DIFF_MAX_BYTES = 512 * 1024;

export interface DiffResult {
  readonly id: string;
  readonly name: string;
  readonly root: string;
  readonly branch: string | null;
  readonly base: { readonly ref: string | null; readonly commit: string | null; reason: string };
  readonly commits: readonly { hash: string; subject: string }[];
  readonly files: readonly ChangedFile[];
  /** The unified diff ("" with --stat). */
  readonly diff: string;
  /** `git diff --stat`-like text, with --stat only. */
  readonly stat: string | null;
  readonly truncated: boolean;
}

export default defineVerb({
  name: "diff",
  summary: "Print what a session's worktree changed since its branch point (files and diff)",
  args: [
    TARGET_ARG,
    { name: "base", type: "string", meta: "REF", help: "compare with REF's merge base instead" },
    { name: "stat", type: "bool", help: "a summary per file instead of the diff" },
  ],
  async run({ host }, args): Promise<DiffResult> {
    const session = resolveTarget(host.sessions, str(args, "target")!);
    const cwd = host.view(session.id)?.cwd ?? session.cwd;
    const base = str(args, "base");
    const stat = flag(args, "stat");
    const changes = await readChanges(cwd, {
      ...(base !== undefined ? { base } : {}),
      maxDiffBytes: DIFF_MAX_BYTES,
    });
    const fitted = fit(changes.diff, DIFF_MAX_BYTES);
    return {
      id: session.id,
      name: session.name,
      root: changes.root,
      branch: changes.branch,
      base: changes.base,
      commits: changes.commits,
      files: changes.files,
      diff: stat ? "" : fitted.diff,
      stat: stat ? formatStat(parseUnifiedDiff(changes.diff)) : null,
      truncated: changes.truncated || fitted.cut,
    };
  },
  format(result) {
    const lines = [`${label(result)}: ${describeBase(result)}`];
    if (result.files.length === 0) lines.push("No changes");
    if (result.stat !== null) {
      if (result.stat !== "") lines.push(result.stat);
    } else {
      for (const f of result.files) lines.push(`${STATUS_LETTER[f.status]} ${fileName(f)}`);
      if (result.diff !== "") lines.push("", result.diff.replace(/\n$/, ""));
    }
    if (result.truncated) lines.push(`(diff cut: git -C ${result.root} diff shows all of it)`);
    return lines.join("\n");
  },
});

function fileName(f: ChangedFile): string {
  return f.oldPath ? `${f.oldPath} -> ${f.path}` : f.path;
}

/** `branch feat in /wt/feat, since main at 1a2b3c4 (2 commits)` */
export function describeBase(r: Pick<DiffResult, "root" | "branch" | "base" | "commits">): string {
  const where = `${r.branch ? `branch ${r.branch}` : "detached HEAD"} in ${r.root}`;
  if (r.base.commit === null) return `${where}, uncommitted changes only (${r.base.reason})`;
  const n = r.commits.length;
  return `${where}, since ${r.base.ref} at ${r.base.commit.slice(0, 7)} ` +
    `(${n} commit${n === 1 ? "" : "s"})`;
}

/** The diff cut at a line boundary so that its JSON encoding fits in `max` bytes. */
export function fit(diff: string, max: number): { diff: string; cut: boolean } {
  const size = (s: string) => new TextEncoder().encode(JSON.stringify(s)).length;
  if (size(diff) <= max) return { diff, cut: false };
  let low = 0;
  let high = diff.length;
  while (low < high) { // the longest prefix that fits, then back to its last newline
    const mid = Math.ceil((low + high) / 2);
    if (size(diff.slice(0, mid)) <= max) low = mid;
    else high = mid - 1;
  }
  const end = diff.lastIndexOf("\n", low - 1) + 1;
  return { diff: diff.slice(0, end), cut: true };
}
