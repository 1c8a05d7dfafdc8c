/**
 * Finishing a worktree (docs/changes.md, "Removing a worktree"): `git
 * worktree remove` and, unless kept, its branch. decideRemoval is the pure
 * rule; removeWorktree reads the facts (./changes.ts) and acts.
 *
 * Never the main checkout, whatever the flags. Uncommitted changes are
 * refused unless forced. Commits not in the base branch are never deleted
 * without saying so: refused unless the branch is kept (`keepBranch`) or the
 * deletion forced, and a forced deletion reports the tip that restores them.
 */

import { type Changes, readChanges } from "./changes.ts";
import type { Commit } from "./parse.ts";
import { git, GitError } from "./run.ts";
import { listed, plural, type RemovalReport } from "./removal_text.ts";

export { describeRemoval, type RemovalReport } from "./removal_text.ts";

export interface RemovalFlags {
  /** Discard uncommitted changes and delete unmerged commits. */
  readonly force?: boolean;
  /** Remove the folder only; the branch (and its commits) stays. */
  readonly keepBranch?: boolean;
}

export type Decision =
  | {
    readonly ok: false;
    /** What stands in the way (`/wt/x has uncommitted changes (1 file: a.txt)`). */
    readonly reason: string;
    /** What to do about it, in ctl's flags. */
    readonly hint: string;
    /** Whether --force would go ahead (never for the main checkout). */
    readonly forceable: boolean;
  }
  | {
    readonly ok: true;
    /** `git worktree remove --force` (uncommitted changes are discarded). */
    readonly forceRemove: boolean;
    /** The branch to delete, or null (kept, or detached). */
    readonly deleteBranch: string | null;
    /** Commits the removal deletes (forced): reported with the tip that restores them. */
    readonly lost: readonly Commit[];
  };

/** Whether and how `changes`' worktree may be removed (pure). */
export function decideRemoval(changes: Changes, flags: RemovalFlags = {}): Decision {
  const force = flags.force === true;
  const where = changes.root;
  if (changes.isMain) {
    return {
      ok: false,
      reason: `${where} is the main checkout of its repository`,
      hint: "only a worktree made with git worktree add can be removed",
      forceable: false,
    };
  }
  const dirty = changes.files.filter((f) => f.staged || f.unstaged || f.untracked);
  if (dirty.length > 0 && !force) {
    return {
      ok: false,
      reason: `${where} has uncommitted changes (${plural(dirty.length, "file")}: ` +
        `${listed(dirty.map((f) => f.path))})`,
      hint: "commit or stash them, or --force to discard them",
      forceable: true,
    };
  }
  const base = changes.base.ref ?? "its base";
  const commits = changes.commits;
  const shown = listed(commits.map((c) => `${c.hash} ${c.subject}`), 2);
  if (changes.branch === null) {
    if (commits.length > 0 && !force) {
      return {
        ok: false,
        reason: `${where} has a detached HEAD with ${plural(commits.length, "commit")} ` +
          `not in ${base} (${shown})`,
        hint: "put them on a branch, or --force to delete them",
        forceable: true,
      };
    }
    return { ok: true, forceRemove: force, deleteBranch: null, lost: commits };
  }
  if (flags.keepBranch) return { ok: true, forceRemove: force, deleteBranch: null, lost: [] };
  if (changes.base.commit === null && !force) {
    return {
      ok: false,
      reason: `Cannot tell whether branch ${changes.branch} is merged (${changes.base.reason})`,
      hint: "--keep-branch keeps it, --force deletes it",
      forceable: true,
    };
  }
  if (commits.length > 0 && !force) {
    return {
      ok: false,
      reason: `Branch ${changes.branch} has ${plural(commits.length, "commit")} not merged into ` +
        `${base} (${shown})`,
      hint: "merge them, or --keep-branch to keep the branch, or --force to delete them",
      forceable: true,
    };
  }
  return { ok: true, forceRemove: force, deleteBranch: changes.branch, lost: commits };
}

/** Removes the worktree `dir` is in, or throws GitError with the refusal. */
export async function removeWorktree(
  dir: string,
  flags: RemovalFlags = {},
): Promise<RemovalReport> {
  const changes = await readChanges(dir, { maxDiffBytes: 0 });
  const decision = decideRemoval(changes, flags);
  if (!decision.ok) throw new GitError(`${decision.reason}: ${decision.hint}`);
  // From the shared git directory: never from inside the folder being removed.
  await git(changes.commonDir, [
    "worktree",
    "remove",
    ...(decision.forceRemove ? ["--force"] : []),
    changes.root,
  ]);
  if (decision.deleteBranch !== null) {
    await git(changes.commonDir, ["branch", "-D", "--", decision.deleteBranch]);
  }
  return {
    root: changes.root,
    deletedBranch: decision.deleteBranch,
    keptBranch: decision.deleteBranch === null ? changes.branch : null,
    lost: decision.lost,
    lostTip: decision.lost.length > 0 ? changes.head : null,
    discarded: changes.files.filter((f) => f.staged || f.unstaged || f.untracked).map((f) =>
      f.path
    ),
  };
}

/** Whether folder `dir` is `root` or inside it, symbolic links resolved (a session's cwd may hold some). */
export function insideWorktree(dir: string, root: string): boolean {
  let real = dir;
  try {
    real = Deno.realPathSync(dir);
  } catch { /* gone: compared as given */ }
  return real === root || real.startsWith(`${root}/`);
}
