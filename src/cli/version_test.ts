import assert from "node:assert/strict";
import { BUILD_FILE, buildOf, gitCommit, versionLine } from "./version.ts";

const A = "a".repeat(40);
const B = "b".repeat(40);

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    Deno.mkdirSync(`${root}/${path}`.replace(/\/[^/]*$/, ""), { recursive: true });
    Deno.writeTextFileSync(`${root}/${path}`, text);
  }
}

Deno.test("gitCommit: a branch as a loose ref, a packed ref, or a detached HEAD", () => {
  const root = Deno.makeTempDirSync();
  try {
    write(root, { ".git/HEAD": "ref: refs/heads/main\n", ".git/refs/heads/main": `${A}\n` });
    assert.equal(gitCommit(root), A);
    Deno.removeSync(`${root}/.git/refs/heads/main`);
    write(root, { ".git/packed-refs": `# pack-refs with: peeled\n${B} refs/heads/main\n` });
    assert.equal(gitCommit(root), B);
    write(root, { ".git/HEAD": `${A}\n` });
    assert.equal(gitCommit(root), A);
    write(root, { ".git/HEAD": "ref: refs/heads/gone\n" });
    assert.equal(gitCommit(root), null);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("gitCommit: a worktree's .git file, its own HEAD and the common dir's refs", () => {
  const root = Deno.makeTempDirSync();
  try {
    write(root, {
      "main/.git/refs/heads/topic": `${B}\n`,
      "main/.git/worktrees/wt/HEAD": "ref: refs/heads/topic\n",
      "main/.git/worktrees/wt/commondir": "../..\n",
      "wt/.git": `gitdir: ${root}/main/.git/worktrees/wt\n`,
    });
    assert.equal(gitCommit(`${root}/wt`), B);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("versionLine: an installed copy (no .git) names the commit its build.json recorded", () => {
  const root = Deno.makeTempDirSync();
  try {
    assert.equal(versionLine("1.2.3", root), "lazyshell 1.2.3 (commit unknown)");
    write(root, { [BUILD_FILE]: JSON.stringify({ version: "1.2.3", commit: A }) });
    assert.deepEqual(buildOf(root), { commit: A, modified: false });
    assert.equal(versionLine("1.2.3", root), `lazyshell 1.2.3 (commit ${A.slice(0, 12)})`);
    write(root, { [BUILD_FILE]: JSON.stringify({ version: "1.2.3", commit: A, modified: true }) });
    assert.equal(
      versionLine("1.2.3", root),
      `lazyshell 1.2.3 (commit ${A.slice(0, 12)}, modified)`,
    );
    // A checkout's own HEAD wins over a build.json left by an earlier build.
    write(root, { ".git/HEAD": `${B}\n` });
    assert.equal(versionLine("1.2.3", root), `lazyshell 1.2.3 (commit ${B.slice(0, 12)})`);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
