/**
 * What a worktree changed since its branch point (docs/changes.md): the
 * repository root, branch, base and merge base, the commits since, every
 * changed file (committed, staged, unstaged, untracked) and one unified diff
 * of the work tree against the branch point, untracked files included. Read
 * by the Changes tab (plugins/changes/), `ctl diff` and `ctl worktree-remove`.
 * Runs git (./run.ts); the parsing is ./parse.ts, the base choice ./base.ts.
 */

import { candidateRefs, chooseBase, defaultNames } from "./base.ts";
import {
  type ChangeStatus,
  type Commit,
  LOG_FORMAT,
  parseLog,
  parseNameStatus,
  parseStatus,
  parseUnifiedDiff,
  type Status,
  untrackedDiff,
} from "./parse.ts";
import { git, GitError } from "./run.ts";

/** Git's empty tree: the "branch point" of a repository with no commit yet. */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

export interface ChangedFile {
  readonly path: string;
  readonly oldPath: string | null;
  /** Against the branch point (`untracked` for a file git does not track). */
  readonly status: ChangeStatus;
  /** Changed by a commit since the branch point. */
  readonly committed: boolean;
  /** Has changes in the index (`git add`ed, not committed). */
  readonly staged: boolean;
  /** Has changes in the work tree that are not staged. */
  readonly unstaged: boolean;
  readonly untracked: boolean;
  readonly added: number;
  readonly removed: number;
  readonly binary: boolean;
}

export interface Repo {
  /** The folder asked about. */
  readonly dir: string;
  /** Its worktree's top folder. */
  readonly root: string;
  /** The repository's git directory shared by all its worktrees. */
  readonly commonDir: string;
  /** The main checkout (not a `git worktree add`ed one). */
  readonly isMain: boolean;
}

export interface Changes extends Repo {
  readonly branch: string | null;
  readonly head: string | null;
  readonly upstream: string | null;
  readonly base: {
    /** The branch compared with (`main`, `origin/main`), or null. */
    readonly ref: string | null;
    readonly reason: string;
    /** The merge base (branch point), or null (compared with HEAD). */
    readonly commit: string | null;
  };
  /** Commits since the branch point (newest first). */
  readonly commits: readonly Commit[];
  readonly files: readonly ChangedFile[];
  readonly diff: string;
  /** The diff was cut at maxDiffBytes. */
  readonly truncated: boolean;
}

export interface ChangesOptions {
  /** Compare with this ref instead of the chosen base. */
  readonly base?: string;
  /** Keep at most this much diff text (default 8 MiB). */
  readonly maxDiffBytes?: number;
}

/** An untracked file bigger than this is listed, its content not shown. */
const UNTRACKED_SHOWN_BYTES = 1024 * 1024;

/** The worktree `dir` is in. */
export async function findRepo(dir: string): Promise<Repo> {
  const out = await git(dir, [
    "rev-parse",
    "--path-format=absolute",
    "--show-toplevel",
    "--git-dir",
    "--git-common-dir",
  ]);
  const [root = "", gitDir = "", commonDir = ""] = out.stdout.split("\n");
  return { dir, root, commonDir, isMain: gitDir === commonDir };
}

export async function readChanges(dir: string, options: ChangesOptions = {}): Promise<Changes> {
  const repo = await findRepo(dir);
  const root = repo.root;
  const max = options.maxDiffBytes ?? 8 * 1024 * 1024;
  const status = parseStatus(
    (await git(root, ["status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all"]))
      .stdout,
  );
  const base = await branchPoint(root, status, options.base ?? null);
  const against = base.commit ?? status.oid ?? EMPTY_TREE;
  const diffArgs = ["--no-color", "--no-ext-diff", "--no-textconv", "--no-relative", "-M"];
  const [commits, committed, combined, tracked] = await Promise.all([
    base.commit && status.oid
      ? git(root, ["log", "-z", LOG_FORMAT, `${base.commit}..HEAD`]).then((r) => parseLog(r.stdout))
      : [],
    base.commit && status.oid
      ? git(root, ["diff", "--name-status", "-z", ...diffArgs, base.commit, "HEAD", "--"])
        .then((r) => parseNameStatus(r.stdout))
      : [],
    git(root, ["diff", "--name-status", "-z", ...diffArgs, against, "--"])
      .then((r) => parseNameStatus(r.stdout)),
    git(root, [
      "diff",
      ...diffArgs,
      "--src-prefix=a/",
      "--dst-prefix=b/",
      against,
      "--",
    ], { maxBytes: max }),
  ]);
  let diff = tracked.stdout;
  let truncated = tracked.truncated;
  const untracked = status.entries.filter((e) => e.kind === "untracked").map((e) => e.path);
  for (const path of untracked) {
    if (truncated) break;
    const piece = await untrackedPiece(root, path);
    if (diff.length + piece.length > max) {
      truncated = true;
      break;
    }
    diff += piece;
  }
  const counts = new Map(parseUnifiedDiff(diff).map((f) => [f.path, f]));
  const committedPaths = new Set(committed.flatMap((c) => [c.path, c.oldPath ?? c.path]));
  const byPath = new Map(status.entries.map((e) => [e.path, e]));
  const file = (path: string, oldPath: string | null, change: ChangeStatus): ChangedFile => {
    const entry = byPath.get(path);
    const count = counts.get(path);
    return {
      path,
      oldPath,
      status: change,
      committed: committedPaths.has(path),
      staged: entry !== undefined && entry.kind !== "untracked" && entry.index !== ".",
      unstaged: entry !== undefined && entry.kind !== "untracked" && entry.worktree !== ".",
      untracked: change === "untracked",
      added: count?.added ?? 0,
      removed: count?.removed ?? 0,
      binary: count?.binary ?? false,
    };
  };
  const files = [
    ...combined.map((c) => file(c.path, c.oldPath, c.status)),
    ...untracked.map((p) => file(p, null, "untracked")),
  ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    ...repo,
    branch: status.branch,
    head: status.oid,
    upstream: status.upstream,
    base,
    commits,
    files,
    diff,
    truncated,
  };
}

async function branchPoint(
  root: string,
  status: Status,
  explicit: string | null,
): Promise<Changes["base"]> {
  const [originHead, initDefault] = await Promise.all([
    git(root, ["symbolic-ref", "-q", "--short", "refs/remotes/origin/HEAD"], { ok: [0, 1] }),
    git(root, ["config", "--get", "init.defaultBranch"], { ok: [0, 1] }),
  ]);
  const names = defaultNames({
    originHead: originHead.stdout.trim().replace(/^origin\//, "") || null,
    initDefault: initDefault.stdout.trim() || null,
  });
  const refs = await git(root, ["for-each-ref", "--format=%(refname)", ...candidateRefs(names)]);
  const choice = chooseBase({
    branch: status.branch,
    upstream: status.upstream,
    originHead: names[0] ?? null,
    initDefault: initDefault.stdout.trim() || null,
    exists: new Set(refs.stdout.split("\n").filter((l) => l !== "")),
  }, explicit);
  if (choice.ref === null || status.oid === null) return { ...choice, commit: null };
  if (explicit !== null) {
    // A mistyped --base is said as such, not as a merge-base failure.
    const known = await git(root, ["rev-parse", "--verify", "-q", `${explicit}^{commit}`], {
      ok: [0, 1],
    });
    if (known.code !== 0) throw new GitError(`No such ref: ${explicit}`);
  }
  const mb = await git(root, ["merge-base", "HEAD", choice.ref], { ok: [0, 1] });
  const commit = mb.stdout.trim();
  return commit === ""
    ? { ref: choice.ref, reason: `no common commit with ${choice.ref}`, commit: null }
    : { ...choice, commit };
}

async function untrackedPiece(root: string, path: string): Promise<string> {
  const full = `${root}/${path}`;
  try {
    const info = await Deno.lstat(full);
    if (info.isSymlink) {
      return untrackedDiff(path, new TextEncoder().encode(await Deno.readLink(full)), "120000");
    }
    const mode = info.mode !== null && (info.mode & 0o111) !== 0 ? "100755" : "100644";
    if (info.size > UNTRACKED_SHOWN_BYTES) {
      return `diff --git a/${path} b/${path}\nnew file mode ${mode}\n` +
        `Large file not shown (${info.size} bytes)\n`;
    }
    return untrackedDiff(path, await Deno.readFile(full), mode);
  } catch {
    return ""; // gone since `git status` (an agent at work): the next refresh says so
  }
}
