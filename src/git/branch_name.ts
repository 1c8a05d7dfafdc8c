/**
 * Names and places for a new agent session's worktree (`N` … in a new
 * worktree, `ctl new --agent ID --worktree`): the branch and folder named
 * after the session, where the folder goes (config `worktrees.dir`), and
 * the `git worktree add` arguments. Pure: ./worktree_add.ts runs git.
 */

/** A name as a branch or folder name: lowercase words joined by `-` (`task` when nothing is left). */
export function slug(name: string): string {
  const s = name.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9._-]+/g, "-").replace(/-{2,}/g, "-").replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, 50).replace(/[-.]+$/, "");
  return s === "" ? "task" : s;
}

/** The branch for a session: config `worktrees.branch_prefix` plus its slug. */
export function branchName(prefix: string, name: string): string {
  return prefix + slug(name);
}

/**
 * Where a new worktree goes: `pattern` (config `worktrees.dir`; `{repo}` is
 * the main checkout's folder name, `~/` the home folder, a relative path
 * is taken from the main checkout) plus the session's slug.
 */
export function worktreePath(pattern: string, main: string, name: string, home: string): string {
  const repoName = main.replace(/\/+$/, "").split("/").pop() ?? "repo";
  let dir = pattern.replaceAll("{repo}", repoName);
  if (dir === "~" || dir.startsWith("~/")) dir = home + dir.slice(1);
  if (!dir.startsWith("/")) dir = `${main}/${dir}`;
  return normalize(`${dir}/${slug(name)}`);
}

/** `/a/./b/../c` → `/a/c` (no file system access: the folder does not exist yet). */
function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return "/" + out.join("/");
}

/** `git worktree add` on a new branch from a commit (`--` keeps a path from reading as an option). */
export function worktreeAddArgs(path: string, branch: string, base: string): string[] {
  return ["worktree", "add", "-b", branch, "--", path, base];
}
