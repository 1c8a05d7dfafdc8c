/**
 * `worktree-remove TARGET [--force] [--keep-branch]`: finishes the worktree
 * the session ran in (docs/changes.md, "Removing a worktree"): `git worktree
 * remove`, then its branch when merged. Refused while a session still runs
 * inside it, for the main checkout (always), with uncommitted changes or
 * unmerged commits (unless --force, which says what it deleted).
 */

import { UserError } from "../../errors.ts";
import { findRepo } from "../../git/changes.ts";
import {
  describeRemoval,
  insideWorktree,
  type RemovalReport,
  removeWorktree,
} from "../../git/worktree_remove.ts";
import { defineVerb, flag, str, TARGET_ARG } from "../verb.ts";
import { resolveTarget } from "../targets.ts";
import { label } from "../entry.ts";

export default defineVerb({
  name: "worktree-remove",
  summary: "Remove a session's git worktree and its merged branch (refuses to lose work)",
  args: [
    TARGET_ARG,
    { name: "force", type: "bool", help: "discard uncommitted changes and unmerged commits" },
    { name: "keepBranch", type: "bool", help: "remove the folder only; keep the branch" },
  ],
  async run({ host }, args): Promise<RemovalReport & { id: string; name: string }> {
    const session = resolveTarget(host.sessions, str(args, "target")!);
    const cwd = host.view(session.id)?.cwd ?? session.cwd;
    const { root, isMain } = await findRepo(cwd);
    // The main checkout is refused by removeWorktree, whoever runs in it.
    const running = !isMain &&
      host.sessions.list().find((s) => s.status === "running" && insideWorktree(s.cwd, root));
    if (running) {
      throw new UserError(
        `${label(running)} still runs in ${root}: end it first (lazyshell ctl kill ${running.id})`,
      );
    }
    const report = await removeWorktree(cwd, {
      force: flag(args, "force"),
      keepBranch: flag(args, "keepBranch"),
    });
    return { id: session.id, name: session.name, ...report };
  },
  format(result) {
    return describeRemoval(result);
  },
});
