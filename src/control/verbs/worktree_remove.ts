/** `worktree-remove TARGET`'s body; its spec (and what it does) is ../specs/worktree_remove.ts. */

import { defineVerb, flag, str } from "../verb.ts";
import { finishWorktree, worktreeTarget } from "../worktree_finish.ts";
import spec from "../specs/worktree_remove.ts";

export default defineVerb(spec, async ({ host }, args) => {
  const target = worktreeTarget(host, str(args, "target")!);
  const report = await finishWorktree(host, target, {
    force: flag(args, "force"),
    keepBranch: flag(args, "keepBranch"),
  });
  return { id: target.session?.id ?? null, name: target.session?.name ?? null, ...report };
});
