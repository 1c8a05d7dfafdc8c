/**
 * `lazyshell --version`: the version from deno.json and the commit this copy
 * was built from. A git checkout reads its `.git` directly (no `git`
 * process: `--version` stays a light command, see main.ts). An installed
 * copy has no `.git`: tools/dist/pack.ts and tools/dist/compile.ts record the commit
 * in `build.json` beside main.ts when they build it.
 */

import { exists, readTextOrNull } from "../util/fs.ts";

/** The file tools/dist/pack.ts and tools/dist/compile.ts write beside main.ts. */
export const BUILD_FILE = "build.json";

export interface BuildInfo {
  readonly version: string;
  /** Full commit hash, or null when unknown. */
  readonly commit: string | null;
}

const ROOT = new URL("../../", import.meta.url);

/** `lazyshell 0.1.0 (commit 75fffc6a1b2c)`; `, modified` when built from a changed tree. */
export function versionLine(version: string, root: URL | string = ROOT): string {
  const { commit, modified } = buildOf(root);
  const what = commit ? `commit ${commit.slice(0, 12)}` : "commit unknown";
  return `lazyshell ${version} (${what}${modified ? ", modified" : ""})`;
}

/** What build.json records (tools/dist/pack.ts, tools/dist/compile.ts). */
export interface BuildFile {
  readonly version: string;
  readonly commit: string | null;
  /** The working tree had uncommitted changes to tracked files. */
  readonly modified: boolean;
}

/** The commit of the copy at `root`: its git checkout, else its build.json. */
export function buildOf(root: URL | string): { commit: string | null; modified: boolean } {
  const at = (name: string) =>
    typeof root === "string" ? `${root.replace(/\/$/, "")}/${name}` : new URL(name, root);
  // A compiled binary only has what was embedded; a checkout's HEAD beats an older build.json.
  if (!Deno.build.standalone && exists(at(".git"))) {
    const dir = typeof root === "string" ? root : decodeURIComponent(root.pathname);
    return { commit: gitCommit(dir.replace(/\/$/, "")), modified: false };
  }
  try {
    const info = JSON.parse(readTextOrNull(at(BUILD_FILE)) ?? "");
    const commit = typeof info.commit === "string" && /^[0-9a-f]{7,64}$/.test(info.commit)
      ? info.commit
      : null;
    return { commit, modified: info.modified === true };
  } catch {
    return { commit: null, modified: false };
  }
}

/**
 * HEAD's commit of the checkout in `dir`, read from files: `.git` is a
 * directory or a `gitdir:` file (worktrees); a branch ref is a loose file
 * in the git dir or its common dir (`commondir`), or a line of packed-refs.
 */
export function gitCommit(dir: string): string | null {
  let gitDir = `${dir}/.git`;
  const pointer = readTextOrNull(gitDir);
  if (pointer !== null) {
    const m = /^gitdir:\s*(.+)$/m.exec(pointer);
    if (!m) return null;
    gitDir = absolute(dir, m[1]!.trim());
  }
  const head = readTextOrNull(`${gitDir}/HEAD`)?.trim() ?? "";
  if (/^[0-9a-f]{40,64}$/.test(head)) return head;
  const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
  if (ref === undefined) return null;
  const common = readTextOrNull(`${gitDir}/commondir`)?.trim();
  const dirs = common ? [gitDir, absolute(gitDir, common)] : [gitDir];
  for (const d of dirs) {
    const loose = readTextOrNull(`${d}/${ref}`)?.trim();
    if (loose && /^[0-9a-f]{40,64}$/.test(loose)) return loose;
  }
  for (const d of dirs) {
    for (const line of (readTextOrNull(`${d}/packed-refs`) ?? "").split("\n")) {
      const [sha, name] = line.trim().split(" ");
      if (name === ref && sha && /^[0-9a-f]{40,64}$/.test(sha)) return sha;
    }
  }
  return null;
}

function absolute(base: string, path: string): string {
  return path.startsWith("/") ? path : `${base}/${path}`;
}
