import assert from "node:assert/strict";
import { exists } from "../util/fs.ts";
import { makeRepo, shell } from "./test_util.ts";
import { addWorktree, repoOf, undoWorktreeAdd } from "./worktree_add.ts";

Deno.test("addWorktree(): a new branch in a new folder from HEAD; taken names refused", async () => {
  const { tmp, repo } = makeRepo();
  const path = `${tmp}/repo.worktrees/fix-it`;
  const w = await addWorktree(repo, path, "fix-it");
  assert.deepEqual(w, {
    path,
    branch: "fix-it",
    base: shell(repo, "git rev-parse HEAD").trim(),
    repo,
  });
  assert.equal(shell(path, "git symbolic-ref --short HEAD").trim(), "fix-it");
  assert.equal(Deno.readTextFileSync(`${path}/README.md`), "hello\n");
  assert.deepEqual(await repoOf(path), { root: path, main: repo }, "main: the first worktree");
  await assert.rejects(addWorktree(repo, `${tmp}/other`, "fix-it"), /Branch fix-it exists already/);
  await assert.rejects(addWorktree(repo, path, "fix-it-2"), /Folder exists already: /);
  await assert.rejects(addWorktree(repo, `${tmp}/bad`, "a..b"), /Not a valid branch name: a\.\.b/);
  await assert.rejects(addWorktree(tmp, `${tmp}/x`, "x"), /Not in a git repository: /);
  await assert.rejects(addWorktree(`${tmp}/gone`, `${tmp}/x`, "x"), /No such folder: /);
  // From a worktree, the next one branches from that worktree's HEAD.
  shell(path, "echo more >> README.md && git commit -qam more");
  const next = await addWorktree(path, `${tmp}/repo.worktrees/next`, "next");
  assert.equal(next.base, shell(path, "git rev-parse HEAD").trim());
  assert.equal(next.repo, repo);
  // The main checkout is untouched: clean, on main, its ignored .env kept.
  assert.equal(shell(repo, "git status --porcelain").trim(), "");
  assert.equal(shell(repo, "git symbolic-ref --short HEAD").trim(), "main");
  assert.ok(exists(`${repo}/.env`) && !exists(`${path}/.env`), ".env is not in git");
  Deno.removeSync(tmp, { recursive: true });
});

Deno.test("undoWorktreeAdd() takes back the folder and the branch", async () => {
  const { tmp, repo } = makeRepo();
  const w = await addWorktree(repo, `${tmp}/wt/x`, "x");
  await undoWorktreeAdd(w);
  assert.ok(!exists(w.path));
  assert.equal(shell(repo, "git branch --list x").trim(), "");
  assert.equal(shell(repo, "git worktree list --porcelain").match(/^worktree /gm)?.length, 1);
  Deno.removeSync(tmp, { recursive: true });
});

Deno.test("a repository without a commit is refused in one line", async () => {
  const tmp = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "lazyshell-git-" }));
  shell(tmp, "git init -q -b main");
  await assert.rejects(
    addWorktree(tmp, `${tmp}/../w`, "w"),
    /No commit yet in .*: commit once first/,
  );
  Deno.removeSync(tmp, { recursive: true });
});
