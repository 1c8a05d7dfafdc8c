/**
 * Makes the git worktree of a new agent session (`N` … in a new worktree,
 * `ctl new --agent ID --worktree`): a new branch from the folder's HEAD in
 * a new folder, refused with one line when the branch or the folder is
 * taken or the folder is in no repository. Names and arguments come from
 * ./branch_name.ts; git runs through ./run.ts (never a shell, no terminal
 * prompt, one-line errors). Must not import the TUI.
 */

import { UserError } from "../errors.ts";
import type { WorktreeInfo } from "../model/session.ts";
import { exists } from "../util/fs.ts";
import { worktreeAddArgs } from "./branch_name.ts";
import { git } from "./run.ts";

/** Any exit code is an answer here: the callers say what it means. */
const ANY = { ok: Array.from({ length: 256 }, (_, i) => i) };

export interface Repo {
  /** The top of the working tree the folder is in. */
  readonly root: string;
  /** The repository's main checkout (its first worktree). */
  readonly main: string;
}

/** The repository a folder is in; a UserError when it is in none. */
export async function repoOf(dir: string): Promise<Repo> {
  if (!exists(dir)) throw new UserError(`No such folder: ${dir}`);
  const top = await git(dir, ["rev-parse", "--show-toplevel"], ANY);
  if (top.code !== 0) throw new UserError(`Not in a git repository: ${dir}`);
  const list = (await git(dir, ["worktree", "list", "--porcelain"])).stdout;
  const main = list.match(/^worktree (.+)$/m)?.[1];
  return { root: top.stdout.trim(), main: main ?? top.stdout.trim() };
}

/** A new worktree at `path` on a new branch `branch` from `dir`'s HEAD. */
export async function addWorktree(
  dir: string,
  path: string,
  branch: string,
): Promise<WorktreeInfo> {
  const repo = await repoOf(dir);
  const check = await git(repo.root, ["check-ref-format", "--branch", branch], ANY);
  if (check.code !== 0) throw new UserError(`Not a valid branch name: ${branch}`);
  const taken = await git(
    repo.root,
    ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`],
    ANY,
  );
  if (taken.code === 0) {
    throw new UserError(`Branch ${branch} exists already: choose another session name`);
  }
  if (exists(path)) {
    throw new UserError(`Folder exists already: ${path}: choose another session name`);
  }
  const head = await git(repo.root, ["rev-parse", "--verify", "--quiet", "HEAD"], ANY);
  if (head.code !== 0) throw new UserError(`No commit yet in ${repo.root}: commit once first`);
  const base = head.stdout.trim();
  await git(repo.root, worktreeAddArgs(path, branch, base));
  return { path: Deno.realPathSync(path), branch, base, repo: repo.main };
}

/**
 * Takes back a worktree made a moment ago when its session could not
 * start: nothing ran in it, so its folder and branch go whatever they hold.
 */
export async function undoWorktreeAdd(w: WorktreeInfo): Promise<void> {
  await git(w.repo, ["worktree", "remove", "--force", "--", w.path], ANY);
  await git(w.repo, ["branch", "-D", "--", w.branch], ANY);
}
