import assert from "node:assert/strict";
import { readChanges } from "./changes.ts";
import { git, GitError } from "./run.ts";
import { sh, testRepo } from "./test_util.ts";

Deno.test("readChanges: a worktree's committed, staged, unstaged and untracked changes", async () => {
  using repo = testRepo();
  const wt = repo.worktree("feat");
  repo.write(`${wt}/a.txt`, "one\n2\nthree\n");
  repo.commit(wt, "edit a");
  repo.write(`${wt}/staged.txt`, "s\n");
  sh(wt, "add", "staged.txt");
  repo.write(`${wt}/a.txt`, "one\n2\nthree\nfour\n");
  repo.write(`${wt}/new file.txt`, "n1\nn2\n");
  // The main checkout moves on: the branch point stays where feat was made.
  repo.write(`${repo.main}/main.txt`, "m\n");
  repo.commit(repo.main, "on main");

  const changes = await readChanges(`${wt}`);
  assert.equal(changes.root, wt);
  assert.equal(changes.isMain, false);
  assert.equal(changes.branch, "feat");
  assert.equal(changes.base.ref, "main");
  assert.equal(changes.base.reason, "default branch");
  assert.equal(changes.base.commit, sh(repo.main, "rev-parse", "main~1").trim());
  assert.deepEqual(changes.commits.map((c) => c.subject), ["edit a"]);
  const summary = changes.files.map((f) => [
    f.path,
    f.status,
    [f.committed && "committed", f.staged && "staged", f.unstaged && "unstaged"]
      .filter(Boolean).join(","),
    `+${f.added}-${f.removed}`,
  ]);
  assert.deepEqual(summary, [
    ["a.txt", "modified", "committed,unstaged", "+2-1"],
    ["new file.txt", "untracked", "", "+2-0"],
    ["staged.txt", "added", "staged", "+1-0"],
  ]);
  assert.match(changes.diff, /^-two\n\+2\n three\n\+four$/m);
  assert.match(changes.diff, /^\+\+\+ b\/new file\.txt\n@@ -0,0 \+1,2 @@\n\+n1\n\+n2$/m);
  assert.doesNotMatch(changes.diff, /main\.txt/, "main's own commit is not the branch's change");
  assert.equal(changes.truncated, false);

  const main = await readChanges(repo.main);
  assert.equal(main.isMain, true);
  assert.equal(main.base.ref, null, "on the default branch: nothing committed to compare");
  assert.deepEqual(main.files, []);
});

Deno.test("readChanges: a subfolder, an explicit base, a cut diff", async () => {
  using repo = testRepo();
  const wt = repo.worktree("feat");
  Deno.mkdirSync(`${wt}/sub`);
  repo.write(`${wt}/sub/x.txt`, "x\n".repeat(1000));
  repo.commit(wt, "x");
  const changes = await readChanges(`${wt}/sub`, { base: "feat", maxDiffBytes: 100 });
  assert.equal(changes.root, wt);
  assert.equal(changes.base.reason, "given");
  assert.deepEqual(changes.files, [], "feat against itself: nothing");
  const cut = await readChanges(`${wt}/sub`, { maxDiffBytes: 100 });
  assert.equal(cut.truncated, true);
  assert.ok(cut.diff.length <= 100);
  assert.deepEqual(cut.files.map((f) => f.path), ["sub/x.txt"]);
  await assert.rejects(readChanges(wt, { base: "nope" }), new GitError("No such ref: nope"));
});

Deno.test("readChanges: a repository with no commit yet shows its files as added", async () => {
  const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "lzs-git-" }));
  try {
    sh(dir, "init", "-q", "-b", "main");
    Deno.writeTextFileSync(`${dir}/f.txt`, "f\n");
    const changes = await readChanges(dir);
    assert.equal(changes.head, null);
    assert.deepEqual(changes.files.map((f) => [f.path, f.status]), [["f.txt", "untracked"]]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("git failures are one clear line", async () => {
  const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "lzs-nogit-" }));
  try {
    await assert.rejects(readChanges(dir), new GitError(`Not a git repository: ${dir}`));
    await assert.rejects(readChanges(`${dir}/gone`), new GitError(`No such folder: ${dir}/gone`));
    await assert.rejects(
      git(dir, ["status"], { git: "lazyshell-no-such-git" }),
      new GitError("Git is not installed: no lazyshell-no-such-git on PATH"),
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
