import assert from "node:assert/strict";
import { branchName, slug, worktreeAddArgs, worktreePath } from "./branch_name.ts";

Deno.test("slug() and branchName() name a worktree's branch after the session", () => {
  assert.equal(slug("Fix the login bug!"), "fix-the-login-bug");
  assert.equal(slug("Ünïcode  café"), "unicode-cafe");
  assert.equal(slug("..."), "task");
  assert.equal(slug("-x"), "x", "never an option");
  assert.equal(slug("a".repeat(80)).length, 50);
  assert.equal(branchName("agent/", "Fix it"), "agent/fix-it");
  assert.equal(branchName("", "fix-it"), "fix-it");
});

Deno.test("worktreePath(): {repo}, ~/ and relative folders from the main checkout", () => {
  assert.equal(
    worktreePath("../{repo}.worktrees", "/src/app", "Fix it", "/home/u"),
    "/src/app.worktrees/fix-it",
  );
  assert.equal(worktreePath("~/wt/{repo}", "/src/app", "x", "/home/u"), "/home/u/wt/app/x");
  assert.equal(worktreePath(".worktrees", "/src/app", "x", "/h"), "/src/app/.worktrees/x");
  assert.equal(worktreePath("/abs/./y/../z", "/src/app", "x", "/h"), "/abs/z/x");
});

Deno.test("worktreeAddArgs(): a new branch from a commit, the path after --", () => {
  assert.deepEqual(worktreeAddArgs("/w/-odd", "b", "abc123"), [
    "worktree",
    "add",
    "-b",
    "b",
    "--",
    "/w/-odd",
    "abc123",
  ]);
});
