/**
 * What removing a worktree did, in words (./worktree_remove.ts does it): apart
 * so that `ctl` prints a report without loading git's code.
 */

import type { Commit } from "./parse.ts";

export interface RemovalReport {
  /** The folder removed. */
  readonly root: string;
  /** The branch deleted, or null. */
  readonly deletedBranch: string | null;
  /** The branch left in place (kept), or null. */
  readonly keptBranch: string | null;
  /** Commits deleted because forced (newest first). */
  readonly lost: readonly Commit[];
  /** The commit that held them (`git branch NAME <tip>` restores them), or null. */
  readonly lostTip: string | null;
  /** Uncommitted files discarded because forced. */
  readonly discarded: readonly string[];
}

export const listed = (items: readonly string[], max = 3) =>
  items.slice(0, max).join(", ") + (items.length > max ? `, … ${items.length - max} more` : "");

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The report in a few lines (ctl and the Changes tab say the same). */
export function describeRemoval(report: RemovalReport): string {
  const lines = [`Removed worktree ${report.root}`];
  if (report.deletedBranch) lines.push(`Deleted branch ${report.deletedBranch}`);
  if (report.keptBranch) lines.push(`Kept branch ${report.keptBranch}`);
  if (report.discarded.length > 0) {
    lines.push(`Discarded uncommitted changes in ${listed(report.discarded)}`);
  }
  if (report.lost.length > 0) {
    const restore = report.deletedBranch
      ? `git branch ${report.deletedBranch} ${report.lostTip}`
      : `git branch NAME ${report.lostTip}`;
    lines.push(
      `Deleted ${plural(report.lost.length, "unmerged commit")} (${
        listed(report.lost.map((c) => `${c.hash} ${c.subject}`), 2)
      }): ${restore} restores them until git gc prunes them`,
    );
  }
  return lines.join("\n");
}
