/**
 * Which branch a worktree's branch was made from (docs/changes.md, "The
 * branch point"). Pure: the facts come from git (./changes.ts). The branch
 * point itself is `git merge-base HEAD <base>`.
 *
 * 1. An explicit base (`ctl diff --base REF`) wins.
 * 2. The upstream, when it is another branch than the remote copy of this
 *    one (`git worktree add -b x path origin/main` tracks origin/main).
 * 3. The default branch: the one `origin/HEAD` names, else `main`, else
 *    `master`, else `init.defaultBranch` — the local branch when it exists
 *    (it may hold merges not pushed yet), else `origin/<name>`.
 * 4. On the default branch itself: its upstream (so unpushed commits show),
 *    else none — only uncommitted changes are shown.
 */

export interface BaseFacts {
  /** The branch checked out, or null (detached HEAD). */
  readonly branch: string | null;
  /** Its upstream (`origin/main`), or null. */
  readonly upstream: string | null;
  /** The branch `refs/remotes/origin/HEAD` points to (`main`), or null. */
  readonly originHead: string | null;
  /** `git config init.defaultBranch`, or null. */
  readonly initDefault: string | null;
  /** Which of the candidate refs exist (`refs/heads/main`, `refs/remotes/origin/main`). */
  readonly exists: ReadonlySet<string>;
}

export interface BaseChoice {
  /** The ref to take the merge base with, or null (compare with HEAD). */
  readonly ref: string | null;
  /** Why this one, for the docs-minded user (`default branch`, `upstream`). */
  readonly reason: string;
}

/** The names the default branch may have, in the order they are tried. */
export function defaultNames(facts: Pick<BaseFacts, "originHead" | "initDefault">): string[] {
  const names = [facts.originHead, "main", "master", facts.initDefault];
  return [...new Set(names.filter((n): n is string => n !== null && n !== ""))];
}

/** The refs chooseBase may ask about (for one `git for-each-ref`). */
export function candidateRefs(names: readonly string[]): string[] {
  return names.flatMap((n) => [`refs/heads/${n}`, `refs/remotes/origin/${n}`]);
}

export function chooseBase(facts: BaseFacts, explicit: string | null = null): BaseChoice {
  if (explicit !== null) return { ref: explicit, reason: "given" };
  const { branch, upstream } = facts;
  const upstreamName = upstream?.replace(/^[^/]+\//, "") ?? null;
  if (upstream !== null && upstreamName !== branch) return { ref: upstream, reason: "upstream" };
  for (const name of defaultNames(facts)) {
    const local = facts.exists.has(`refs/heads/${name}`);
    const remote = facts.exists.has(`refs/remotes/origin/${name}`);
    if (!local && !remote) continue;
    if (name === branch) {
      return upstream !== null
        ? { ref: upstream, reason: "upstream of the default branch" }
        : { ref: null, reason: "on the default branch" };
    }
    return { ref: local ? name : `origin/${name}`, reason: "default branch" };
  }
  return { ref: null, reason: "no main, master or origin/HEAD branch" };
}
