/**
 * Finishing a worktree, for `ctl worktree-remove`, `ctl worktrees` and `x` in the TUI
 * (docs/changes.md, "Removing a worktree"): which worktree a target names (a session, a folder,
 * or the branch of a worktree lazyshell made), the refusal while a session still runs in it,
 * and the record of the worktrees lazyshell made (src/git/worktree_registry.ts) kept in step.
 */

import { UserError } from "../errors.ts";
import { findRepo } from "../git/changes.ts";
import { git } from "../git/run.ts";
import type { WorktreeRecord, WorktreeRegistry } from "../git/worktree_registry.ts";
import { insideWorktree, type RemovalReport, removeWorktree } from "../git/worktree_remove.ts";
import type { SessionView } from "../model/session.ts";
import type { Session } from "../session/session.ts";
import type { SessionHandles } from "../session/store.ts";
import { exists } from "../util/fs.ts";
import { label } from "./entry.ts";

export interface WorktreeHost {
  readonly sessions: Pick<SessionHandles, "find" | "list">;
  view(id: string): SessionView | undefined;
  readonly worktrees: WorktreeRegistry;
}

/** What a target names: the folder to remove, and the session it came from (or null). */
export interface WorktreeTarget {
  readonly dir: string;
  readonly session: Session | null;
  /** The record of a worktree lazyshell made whose folder is gone, or null. */
  readonly gone: WorktreeRecord | null;
}

/**
 * A session (id or exact name: its folder), an absolute folder, or the branch (or folder) of a
 * worktree lazyshell made. No live session is needed.
 */
export function worktreeTarget(host: WorktreeHost, target: string): WorktreeTarget {
  const session = host.sessions.find(target);
  if (session) return { dir: host.view(session.id)?.cwd ?? session.cwd, session, gone: null };
  const made = host.worktrees.list().find((r) => r.branch === target || r.path === target);
  if (made) {
    return { dir: made.path, session: null, gone: exists(made.path) ? null : made };
  }
  if (target.startsWith("/")) {
    if (!exists(target)) throw new UserError(`No such folder: ${target}`);
    return { dir: target, session: null, gone: null };
  }
  throw new UserError(
    `No session, worktree folder or branch of a worktree lazyshell made: ${target} ` +
      `(lazyshell ctl worktrees lists them; a folder is an absolute path)`,
  );
}

export interface FinishReport extends RemovalReport {
  /** The folder was gone already: the record forgotten, git's bookkeeping pruned. */
  readonly wasGone: boolean;
}

/**
 * Removes the worktree `target` names (refused while a session runs in it), then forgets its
 * record. A recorded worktree whose folder is gone is pruned and forgotten; its branch stays.
 */
export async function finishWorktree(
  host: WorktreeHost,
  target: WorktreeTarget,
  flags: { force?: boolean; keepBranch?: boolean },
): Promise<FinishReport> {
  if (target.gone) {
    const r = target.gone;
    if (exists(r.repo)) await git(r.repo, ["worktree", "prune"]);
    host.worktrees.forget(r.path);
    return {
      root: r.path,
      deletedBranch: null,
      keptBranch: r.branch,
      lost: [],
      lostTip: null,
      discarded: [],
      wasGone: true,
    };
  }
  const { root, isMain } = await findRepo(target.dir);
  // The main checkout is refused by removeWorktree, whoever runs in it.
  const running = !isMain &&
    host.sessions.list().find((s) => s.status === "running" && insideWorktree(s.cwd, root));
  if (running) {
    throw new UserError(
      `${label(running)} still runs in ${root}: end it first (lazyshell ctl kill ${running.id})`,
    );
  }
  const report = await removeWorktree(target.dir, flags);
  host.worktrees.forget(report.root);
  return { ...report, wasGone: false };
}

/** One worktree lazyshell made, as `ctl worktrees` lists it. */
export interface WorktreeListing extends WorktreeRecord {
  /** `present`, or `gone` (its folder was removed without lazyshell; the branch is left). */
  readonly state: "present" | "gone";
  /** Sessions running in it now (`id (name)`). */
  readonly usedBy: readonly string[];
}

/**
 * The worktrees lazyshell made and has not removed. A record whose folder and branch are both
 * gone (removed by hand, or by the Changes tab) is forgotten here: nothing of it is left.
 */
export async function listWorktrees(host: WorktreeHost): Promise<WorktreeListing[]> {
  const out: WorktreeListing[] = [];
  for (const r of host.worktrees.list()) {
    const present = exists(r.path);
    if (!present && !(await branchExists(r))) {
      host.worktrees.forget(r.path);
      continue;
    }
    const usedBy = present
      ? host.sessions.list().filter((s) => s.status === "running" && insideWorktree(s.cwd, r.path))
        .map(label)
      : [];
    out.push({ ...r, state: present ? "present" : "gone", usedBy });
  }
  return out;
}

async function branchExists(r: WorktreeRecord): Promise<boolean> {
  if (!exists(r.repo)) return false;
  const ok = { ok: [0, 1, 128] };
  const out = await git(r.repo, ["rev-parse", "--verify", "--quiet", `refs/heads/${r.branch}`], ok)
    .catch(() => null);
  return out?.code === 0;
}
