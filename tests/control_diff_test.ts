/**
 * `ctl diff` and `ctl worktree-remove` against a real Runtime, real sessions in PTYs, the real
 * control socket and real git repositories (docs/changes.md).
 */

import assert from "node:assert/strict";
import { runCtl } from "../src/ctl/client.ts";
import type { DiffResult } from "../src/control/verbs/diff.ts";
import { sh, testRepo } from "../src/git/test_util.ts";
import { startInstance } from "./control_helpers.ts";

/** Polls `check` until it holds (what a real process does takes its time). */
async function until(check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("Timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function ctl(control: string, ...argv: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const io = { out: (t: string) => lines.push(t), err: (t: string) => lines.push(t) };
  const code = await runCtl(argv, { LAZYSHELL_CONTROL: control }, io);
  return { code, out: lines.join("\n") };
}

Deno.test("ctl diff: an edit made in the session's worktree shows, as text, --json and --stat", async () => {
  using repo = testRepo();
  await using t = await startInstance();
  const control = t.sockets.control!.path;
  const wt = repo.worktree("feat");
  await t.ok("new", { name: "agent", cwd: wt, command: "bash --norc --noprofile" });
  await t.ok("send", {
    target: "agent",
    text: "printf 'one\\nTWO\\nthree\\n' > a.txt; echo n > new.txt",
    enter: true,
  });
  await until(() => {
    try {
      return Deno.readTextFileSync(`${wt}/new.txt`) === "n\n";
    } catch {
      return false;
    }
  }, 15_000);

  const text = await ctl(control, "diff", "agent");
  assert.equal(text.code, 0, text.out);
  const head = `session-1 (agent): branch feat in ${wt}, since main at ` +
    `${sh(repo.main, "rev-parse", "--short=7", "main").trim()} (0 commits)`;
  assert.equal(text.out.split("\n").slice(0, 3).join("\n"), `${head}\nM a.txt\n? new.txt`);
  assert.match(text.out, /^-two\n\+TWO$/m);
  assert.match(text.out, /^\+\+\+ b\/new\.txt\n@@ -0,0 \+1 @@\n\+n$/m);

  const json = await t.ok<DiffResult>("diff", { target: "agent" });
  assert.deepEqual(
    json.files.map((f) => ({ path: f.path, status: f.status, unstaged: f.unstaged })),
    [
      { path: "a.txt", status: "modified", unstaged: true },
      { path: "new.txt", status: "untracked", unstaged: false },
    ],
  );
  assert.equal(json.base.ref, "main");

  const stat = await ctl(control, "diff", "agent", "--stat");
  assert.match(stat.out, /^ a\.txt +\| 2 \+-$/m);
  assert.match(stat.out, /2 files changed, 2 insertions\(\+\), 1 deletion\(-\)$/);
  assert.doesNotMatch(stat.out, /^@@/m);

  // Not a repository: one line, exit 1.
  await t.ok("new", { name: "plain", cwd: t.base, command: "sleep 60" });
  const plain = await ctl(control, "diff", "plain");
  assert.deepEqual(plain, {
    code: 1,
    out: `lazyshell ctl: Not a git repository: ${t.base}`,
  });
});

Deno.test("ctl worktree-remove: running, dirty and unmerged refused; clean removed, main untouched", async () => {
  using repo = testRepo();
  await using t = await startInstance();
  const control = t.sockets.control!.path;
  const wt = repo.worktree("feat");
  const mainHead = sh(repo.main, "rev-parse", "HEAD");
  await t.ok("new", { name: "agent", cwd: wt, command: "sleep 60" });
  assert.deepEqual(await ctl(control, "worktree-remove", "agent"), {
    code: 1,
    out: `lazyshell ctl: session-1 (agent) still runs in ${wt}: ` +
      "end it first (lazyshell ctl kill session-1)",
  });
  await t.ok("kill", { target: "agent" });

  repo.write(`${wt}/a.txt`, "dirty\n");
  assert.deepEqual(await ctl(control, "worktree-remove", "agent"), {
    code: 1,
    out: `lazyshell ctl: ${wt} has uncommitted changes (1 file: a.txt): ` +
      "commit or stash them, or --force to discard them",
  });
  repo.commit(wt, "agent work");
  const hash = sh(wt, "rev-parse", "--short", "HEAD").trim();
  const unmerged = await ctl(control, "worktree-remove", "agent");
  assert.equal(unmerged.code, 1);
  assert.equal(
    unmerged.out,
    `lazyshell ctl: Branch feat has 1 commit not merged into main (${hash} agent work): ` +
      "merge them, or --keep-branch to keep the branch, or --force to delete them",
  );

  sh(repo.main, "merge", "-q", "--ff-only", "feat");
  const removed = await ctl(control, "worktree-remove", "agent");
  assert.deepEqual(removed, { code: 0, out: `Removed worktree ${wt}\nDeleted branch feat` });
  assert.throws(() => Deno.statSync(wt));
  assert.notEqual(sh(repo.main, "rev-parse", "HEAD"), mainHead, "the merge, nothing else");
  assert.equal(sh(repo.main, "status", "--porcelain"), "");
  assert.equal(Deno.readTextFileSync(`${repo.main}/a.txt`), "dirty\n");

  await t.ok("new", { name: "main", cwd: repo.main, command: "true" });
  await until(() => t.runtime.view("session-2")?.status === "exited", 15_000);
  const refused = await ctl(control, "worktree-remove", "main", "--force");
  assert.equal(refused.code, 1);
  assert.match(refused.out, /is the main checkout of its repository/);
  assert.equal(sh(repo.main, "status", "--porcelain"), "");
});
