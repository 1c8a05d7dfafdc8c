import assert from "node:assert/strict";
import {
  formatStat,
  parseLog,
  parseNameStatus,
  parseStatus,
  parseUnifiedDiff,
  untrackedDiff,
} from "./parse.ts";
import { chooseBase } from "./base.ts";
import { gitFailure } from "./run.ts";

// Recorded from git 2.39 in a repository where branch feat renamed r.txt, edited a.txt (committed),
// renamed "sp ace.txt" to "s p.txt" and edited it (rename staged, edit not), staged st.txt, and
// left "new file.txt" untracked.
const STATUS =
  "# branch.oid 9acb43d0f2bb3cfc0cdcf503a2bfd8f8eb919004\u0000# branch.head feat\u0000" +
  "2 RM N... 100644 100644 100644 587be6b4c3f93f93c489c0111bba5596147a26cb " +
  "587be6b4c3f93f93c489c0111bba5596147a26cb R100 s p.txt\u0000sp ace.txt\u0000" +
  "1 A. N... 000000 100644 100644 0000000000000000000000000000000000000000 " +
  "19d9cc8584ac2c7dcf57d2680375e80f099dc481 st.txt\u0000? new file.txt\u0000";

const DIFF =
  "diff --git a/a.txt b/a.txt\nindex 814f4a4..99b356d 100644\n--- a/a.txt\n+++ b/a.txt\n" +
  "@@ -1,2 +1,2 @@\n one\n-two\n+2\ndiff --git a/r.txt b/moved.txt\nsimilarity index 100%\n" +
  "rename from r.txt\nrename to moved.txt\ndiff --git a/sp ace.txt b/s p.txt\n" +
  "similarity index 50%\nrename from sp ace.txt\nrename to s p.txt\nindex 587be6b..b77b4eb 100644\n" +
  "--- a/sp ace.txt\t\n+++ b/s p.txt\t\n@@ -1 +1,2 @@\n x\n+y\ndiff --git a/st.txt b/st.txt\n" +
  "new file mode 100644\nindex 0000000..19d9cc8\n--- /dev/null\n+++ b/st.txt\n@@ -0,0 +1 @@\n" +
  "+staged\n";

Deno.test("parseStatus reads branch, renames with spaces, staged and untracked entries", () => {
  const status = parseStatus(STATUS);
  assert.equal(status.branch, "feat");
  assert.equal(status.oid, "9acb43d0f2bb3cfc0cdcf503a2bfd8f8eb919004");
  assert.equal(status.upstream, null);
  assert.deepEqual(status.entries, [
    { path: "s p.txt", origPath: "sp ace.txt", kind: "renamed", index: "R", worktree: "M" },
    { path: "st.txt", origPath: null, kind: "changed", index: "A", worktree: "." },
    { path: "new file.txt", origPath: null, kind: "untracked", index: "?", worktree: "?" },
  ]);
});

Deno.test("parseStatus: detached HEAD, no commit yet, upstream", () => {
  const status = parseStatus(
    "# branch.oid (initial)\0# branch.head (detached)\0# branch.upstream origin/main\0",
  );
  assert.deepEqual(status, { branch: null, oid: null, upstream: "origin/main", entries: [] });
});

Deno.test("parseNameStatus reads renames with their two paths", () => {
  assert.deepEqual(parseNameStatus("M\0a.txt\0R100\0r.txt\0moved.txt\0D\0gone\0"), [
    { path: "a.txt", oldPath: null, status: "modified" },
    { path: "moved.txt", oldPath: "r.txt", status: "renamed" },
    { path: "gone", oldPath: null, status: "deleted" },
  ]);
});

Deno.test("parseLog reads hash and subject records", () => {
  assert.deepEqual(parseLog("9acb43d\x1fedit a\0\n1234567\x1fsecond\x1fpart\0"), [
    { hash: "9acb43d", subject: "edit a" },
    { hash: "1234567", subject: "second\x1fpart" },
  ]);
});

Deno.test("parseUnifiedDiff counts lines per file, renames and spaces included", () => {
  const files = parseUnifiedDiff(DIFF).map(({ path, oldPath, added, removed }) => ({
    path,
    oldPath,
    added,
    removed,
  }));
  assert.deepEqual(files, [
    { path: "a.txt", oldPath: null, added: 1, removed: 1 },
    { path: "moved.txt", oldPath: "r.txt", added: 0, removed: 0 },
    { path: "s p.txt", oldPath: "sp ace.txt", added: 1, removed: 0 },
    { path: "st.txt", oldPath: null, added: 1, removed: 0 },
  ]);
});

Deno.test("untrackedDiff prints what git diff prints for a new file", () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  // git add -N n.txt && git diff (index line left out: there is no blob yet)
  assert.equal(
    untrackedDiff("n.txt", enc("a\nb\n")),
    "diff --git a/n.txt b/n.txt\nnew file mode 100644\n--- /dev/null\n+++ b/n.txt\n" +
      "@@ -0,0 +1,2 @@\n+a\n+b\n",
  );
  assert.match(
    untrackedDiff("n", enc("a")),
    /@@ -0,0 \+1 @@\n\+a\n\\ No newline at end of file\n$/,
  );
  assert.match(untrackedDiff("b", new Uint8Array([1, 0, 2])), /Binary files \/dev\/null and b\/b/);
  const [parsed] = parseUnifiedDiff(untrackedDiff("x y", enc("1\n2\n3\n")));
  assert.equal(parsed?.path, "x y");
  assert.equal(parsed?.added, 3);
});

Deno.test("formatStat sums like git diff --stat", () => {
  const stat = formatStat(parseUnifiedDiff(DIFF));
  assert.match(stat, /^ a\.txt +\| 2 \+-$/m);
  assert.match(stat, /^ r\.txt => moved\.txt +\| 0$/m);
  assert.match(stat, /4 files changed, 3 insertions\(\+\), 1 deletion\(-\)$/);
});

Deno.test("chooseBase: upstream, default branch, on the default branch, nothing", () => {
  const exists = new Set(["refs/heads/main", "refs/remotes/origin/main"]);
  const facts = { originHead: "main", initDefault: null, exists };
  assert.deepEqual(chooseBase({ ...facts, branch: "feat", upstream: "origin/main" }), {
    ref: "origin/main",
    reason: "upstream",
  });
  // Its own remote copy is not where it came from: the default branch is.
  assert.equal(chooseBase({ ...facts, branch: "feat", upstream: "origin/feat" }).ref, "main");
  assert.equal(chooseBase({ ...facts, branch: "main", upstream: null }).ref, null);
  assert.equal(
    chooseBase({ ...facts, branch: "main", upstream: "origin/main" }).ref,
    "origin/main",
  );
  const remoteOnly = { ...facts, exists: new Set(["refs/remotes/origin/main"]) };
  assert.equal(chooseBase({ ...remoteOnly, branch: "x", upstream: null }).ref, "origin/main");
  const master = { originHead: null, initDefault: null, exists: new Set(["refs/heads/master"]) };
  assert.equal(chooseBase({ ...master, branch: null, upstream: null }).ref, "master");
  const none = { originHead: null, initDefault: "trunk", exists: new Set<string>() };
  assert.equal(chooseBase({ ...none, branch: "x", upstream: null }).ref, null);
  assert.equal(chooseBase({ ...none, branch: "x", upstream: null }, "v1.0").ref, "v1.0");
});

Deno.test("gitFailure says each failure in one line", () => {
  const fail = (stderr: string) => gitFailure("/x", ["status"], { code: 128, stderr });
  assert.equal(
    fail("fatal: not a git repository (or any of the parent directories): .git\n"),
    "Not a git repository: /x",
  );
  assert.equal(
    fail("fatal: cannot change to '/x': No such file or directory\n"),
    "No such folder: /x",
  );
  assert.equal(
    fail("fatal: detected dubious ownership in repository at '/x'\nTo add an exception..."),
    "Git refuses /x: it belongs to another user (see git config safe.directory)",
  );
  assert.equal(fail("error: something odd\nmore"), "git status failed in /x: something odd");
  assert.equal(fail(""), "git status failed in /x: exited with code 128");
});
