/**
 * Makes the git worktree of a new agent session (`N` … in a new worktree,
 * `ctl new --agent ID --worktree`): a new branch from the folder's HEAD in
 * a new folder, refused with one line when the branch or the folder is
 * taken or the folder is in no repository. Names and arguments come from
 * ./branch_name.ts. Git runs as `git -C DIR …`, never through a shell,
 * with no terminal prompt (a credential question would hang) and a
 * deadline. Must not import the TUI.
 */

import { UserError } from "../errors.ts";
import type { WorktreeInfo } from "../model/session.ts";
import { exists } from "../util/fs.ts";
import { worktreeAddArgs } from "./branch_name.ts";

interface GitResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** How long one git command may run before it is killed. */
export const GIT_TIMEOUT_MS = 30_000;

async function git(dir: string, args: readonly string[]): Promise<GitResult> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("git", {
      args: ["-C", dir, "-c", "core.quotePath=false", ...args],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" },
    }).spawn();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw new UserError("Command not found: git");
    throw error;
  }
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
  }, GIT_TIMEOUT_MS);
  try {
    const out = await child.output();
    const decoder = new TextDecoder();
    return {
      code: out.code,
      stdout: decoder.decode(out.stdout),
      stderr: decoder.decode(out.stderr),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** The output of a git command that must succeed; else a UserError with git's own words. */
async function gitOk(dir: string, args: readonly string[]): Promise<string> {
  const r = await git(dir, args);
  if (r.code === 0) return r.stdout;
  const line = r.stderr.split("\n").map((l) => l.replace(/^(fatal|error): /, "").trim())
    .find((l) => l !== "");
  throw new UserError(`git ${args[0]} failed: ${line ?? `exit ${r.code}`}`);
}

export interface Repo {
  /** The top of the working tree the folder is in. */
  readonly root: string;
  /** The repository's main checkout (its first worktree). */
  readonly main: string;
}

/** The repository a folder is in; a UserError when it is in none. */
export async function repoOf(dir: string): Promise<Repo> {
  if (!exists(dir)) throw new UserError(`No such folder: ${dir}`);
  const top = await git(dir, ["rev-parse", "--show-toplevel"]);
  if (top.code !== 0) throw new UserError(`Not in a git repository: ${dir}`);
  const list = await gitOk(dir, ["worktree", "list", "--porcelain"]);
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
  const check = await git(repo.root, ["check-ref-format", "--branch", branch]);
  if (check.code !== 0) throw new UserError(`Not a valid branch name: ${branch}`);
  const taken = await git(repo.root, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`]);
  if (taken.code === 0) {
    throw new UserError(`Branch ${branch} exists already: choose another session name`);
  }
  if (exists(path)) {
    throw new UserError(`Folder exists already: ${path}: choose another session name`);
  }
  const head = await git(repo.root, ["rev-parse", "--verify", "--quiet", "HEAD"]);
  if (head.code !== 0) throw new UserError(`No commit yet in ${repo.root}: commit once first`);
  const base = head.stdout.trim();
  await gitOk(repo.root, worktreeAddArgs(path, branch, base));
  return { path: Deno.realPathSync(path), branch, base, repo: repo.main };
}

/**
 * Takes back a worktree made a moment ago when its session could not
 * start: nothing ran in it, so its folder and branch go whatever they hold.
 */
export async function undoWorktreeAdd(w: WorktreeInfo): Promise<void> {
  await git(w.repo, ["worktree", "remove", "--force", "--", w.path]);
  await git(w.repo, ["branch", "-D", "--", w.branch]);
}
