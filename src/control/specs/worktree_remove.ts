/**
 * `worktree-remove TARGET [--force] [--keep-branch]`: finishes a worktree
 * (docs/changes.md, "Removing a worktree"): `git worktree remove`, then its
 * branch when merged. TARGET is a session (its folder), a worktree folder,
 * or the branch of a worktree lazyshell made: no live session is needed.
 * Refused while a session still runs inside it, for the main checkout
 * (always), with uncommitted changes or unmerged commits (unless --force,
 * which says what it deleted).
 */

import { describeRemoval } from "../../git/removal_text.ts";
import { defineSpec } from "../spec.ts";
import type { FinishReport } from "../worktree_finish.ts";

export type WorktreeRemoveResult = FinishReport & { id: string | null; name: string | null };

export default defineSpec<WorktreeRemoveResult>({
  name: "worktree-remove",
  summary: "Remove a git worktree and its merged branch (refuses to lose work)",
  args: [
    {
      name: "target",
      type: "string",
      positional: true,
      required: true,
      meta: "TARGET",
      help: "session id or exact name, worktree folder (absolute), or branch of one lazyshell made",
    },
    { name: "force", type: "bool", help: "discard uncommitted changes and unmerged commits" },
    { name: "keepBranch", type: "bool", help: "remove the folder only; keep the branch" },
  ],
  format(result) {
    if (result.wasGone) {
      return `Forgot worktree ${result.root}: its folder was gone already\n` +
        `Kept branch ${result.keptBranch} (git branch -D ${result.keptBranch} deletes it)`;
    }
    return describeRemoval(result);
  },
});
