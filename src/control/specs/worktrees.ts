/** `worktrees`: the git worktrees lazyshell made and has not removed (docs/changes.md). */

import { defineSpec } from "../spec.ts";
import type { WorktreeListing } from "../worktree_finish.ts";

export default defineSpec<{ worktrees: WorktreeListing[] }>({
  name: "worktrees",
  summary: "List the git worktrees lazyshell made (ctl worktree-remove removes one)",
  args: [],
  format({ worktrees }) {
    if (worktrees.length === 0) return "No worktrees made by lazyshell";
    const rows = worktrees.map((w) => [
      w.path,
      w.branch,
      w.session,
      w.state === "gone"
        ? "folder gone"
        : w.usedBy.length > 0
        ? `in use: ${w.usedBy.join(", ")}`
        : "-",
    ]);
    const all = [["PATH", "BRANCH", "MADE FOR", "NOW"], ...rows];
    const widths = all[0]!.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
    return all.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd()).join("\n");
  },
});
