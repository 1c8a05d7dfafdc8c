/**
 * `diff TARGET [--base REF] [--stat]`: what the session's worktree (or
 * folder) changed since its branch point — the changed files with their
 * status, and the unified diff, untracked files included (docs/changes.md).
 * The diff is cut at DIFF_MAX_BYTES (JSON-encoded; `truncated: true`).
 */

import type { ChangedFile } from "../../git/changes.ts";
import { STATUS_LETTER } from "../../git/parse.ts";
import { defineSpec, label, TARGET_ARG } from "../spec.ts";

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

export default defineSpec<DiffResult>({
  name: "diff",
  summary: "Print what a session's worktree changed since its branch point (files and diff)",
  args: [
    TARGET_ARG,
    { name: "base", type: "string", meta: "REF", help: "compare with REF's merge base instead" },
    { name: "stat", type: "bool", help: "a summary per file instead of the diff" },
  ],
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
