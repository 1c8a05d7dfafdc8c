import assert from "node:assert/strict";
import { readChanges } from "./changes.ts";
import { GitError } from "./run.ts";
import { sh, testRepo } from "./test_util.ts";
import { decideRemoval, describeRemoval, removeWorktree } from "./worktree_remove.ts";
import { exists } from "../util/fs.ts";

Deno.test("removing a clean, merged worktree deletes folder and branch, main untouched", async () => {
  using repo = testRepo();
  const wt = repo.worktree("feat");
  repo.write(`${repo.main}/local.txt`, "uncommitted in main\n");
  const mainHead = sh(repo.main, "rev-parse", "HEAD");
  const report = await removeWorktree(wt);
  assert.equal(describeRemoval(report), `Removed worktree ${wt}\nDeleted branch feat`);
  assert.equal(exists(wt), false);
  assert.equal(sh(repo.main, "branch", "--list", "feat"), "");
  assert.equal(sh(repo.main, "rev-parse", "HEAD"), mainHead);
  assert.equal(sh(repo.main, "status", "--porcelain"), "?? local.txt\n");
  assert.equal(Deno.readTextFileSync(`${repo.main}/local.txt`), "uncommitted in main\n");
});

Deno.test("a dirty worktree is refused with its files named; --force discards them", async () => {
  using repo = testRepo();
  const wt = repo.worktree("feat");
  repo.write(`${wt}/a.txt`, "changed\n");
  repo.write(`${wt}/b.txt`, "new\n");
  await assert.rejects(
    removeWorktree(wt),
    new GitError(
      `${wt} has uncommitted changes (2 files: a.txt, b.txt): ` +
        "commit or stash them, or --force to discard them",
    ),
  );
  assert.equal(Deno.readTextFileSync(`${wt}/b.txt`), "new\n", "nothing touched");
  const report = await removeWorktree(wt, { force: true });
  assert.match(describeRemoval(report), /Discarded uncommitted changes in a\.txt, b\.txt/);
  assert.equal(exists(wt), false);
});

Deno.test("unmerged commits are reported: refused, kept with --keep-branch, said when forced", async () => {
  using repo = testRepo();
  const wt = repo.worktree("feat");
  repo.write(`${wt}/a.txt`, "work\n");
  repo.commit(wt, "agent work");
  const hash = sh(wt, "rev-parse", "--short", "HEAD").trim();
  const tip = sh(wt, "rev-parse", "HEAD").trim();
  await assert.rejects(
    removeWorktree(wt),
    new GitError(
      `Branch feat has 1 commit not merged into main (${hash} agent work): merge them, ` +
        "or --keep-branch to keep the branch, or --force to delete them",
    ),
  );
  assert.ok(exists(wt));

  const wt2 = repo.worktree("keep");
  repo.write(`${wt2}/k.txt`, "k\n");
  repo.commit(wt2, "kept work");
  const kept = await removeWorktree(wt2, { keepBranch: true });
  assert.equal(describeRemoval(kept), `Removed worktree ${wt2}\nKept branch keep`);
  assert.equal(sh(repo.main, "log", "-1", "--format=%s", "keep").trim(), "kept work");

  const forced = await removeWorktree(wt, { force: true });
  assert.equal(
    describeRemoval(forced),
    `Removed worktree ${wt}\nDeleted branch feat\nDeleted 1 unmerged commit (${hash} agent work): ` +
      `git branch feat ${tip} restores them until git gc prunes them`,
  );
});

Deno.test("a merged branch is removed without --force", async () => {
  using repo = testRepo();
  const wt = repo.worktree("feat");
  repo.write(`${wt}/a.txt`, "work\n");
  repo.commit(wt, "agent work");
  sh(repo.main, "merge", "-q", "--ff-only", "feat");
  const report = await removeWorktree(wt);
  assert.equal(report.deletedBranch, "feat");
  assert.equal(report.lost.length, 0);
});

Deno.test("the main checkout is never removed, even forced", async () => {
  using repo = testRepo();
  await assert.rejects(
    removeWorktree(`${repo.main}`, { force: true }),
    new GitError(
      `${repo.main} is the main checkout of its repository: ` +
        "only a worktree made with git worktree add can be removed",
    ),
  );
  assert.ok(exists(`${repo.main}/a.txt`));
});

Deno.test("decideRemoval: a detached HEAD with commits, no base branch", async () => {
  using repo = testRepo();
  const wt = repo.worktree("feat");
  repo.write(`${wt}/a.txt`, "work\n");
  repo.commit(wt, "agent work");
  sh(wt, "checkout", "-q", "--detach");
  const detached = decideRemoval(await readChanges(wt));
  assert.equal(detached.ok, false);
  assert.match(
    !detached.ok ? detached.reason : "",
    /has a detached HEAD with 1 commit not in main/,
  );
  sh(wt, "checkout", "-q", "feat");
  sh(repo.main, "branch", "-m", "main", "trunk");
  const unknown = decideRemoval(await readChanges(wt));
  assert.deepEqual(unknown, {
    ok: false,
    reason: "Cannot tell whether branch feat is merged (no main, master or origin/HEAD branch)",
    hint: "--keep-branch keeps it, --force deletes it",
    forceable: true,
  });
});
