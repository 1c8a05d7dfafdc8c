import assert from "node:assert/strict";
import { findProjectFile, loadProject } from "./project_load.ts";

function tree(): string {
  const root = Deno.makeTempDirSync({ prefix: "lzs-find-" });
  for (const dir of ["home/repo/.git", "home/repo/pkg/deep", "home/loose/sub", "outside/a"]) {
    Deno.mkdirSync(`${root}/${dir}`, { recursive: true });
  }
  return root;
}

Deno.test("findProjectFile: the current folder first, then its parents", () => {
  const root = tree();
  try {
    const home = `${root}/home`;
    Deno.writeTextFileSync(`${root}/home/repo/lazyshell.yml`, "sessions: []\n");
    assert.equal(
      findProjectFile(`${root}/home/repo/pkg/deep`, home),
      `${root}/home/repo/lazyshell.yml`,
    );
    Deno.writeTextFileSync(`${root}/home/repo/pkg/lazyshell.yml`, "sessions: []\n");
    assert.equal(
      findProjectFile(`${root}/home/repo/pkg/deep`, home),
      `${root}/home/repo/pkg/lazyshell.yml`,
    );
    assert.equal(
      findProjectFile(`${root}/home/repo/pkg`, home),
      `${root}/home/repo/pkg/lazyshell.yml`,
    );
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("findProjectFile: never above a repository's root or the home folder", () => {
  const root = tree();
  try {
    const home = `${root}/home`;
    // Above the repository (its .git marks the root): not used from inside it.
    Deno.writeTextFileSync(`${root}/home/lazyshell.yml`, "sessions: []\n");
    assert.equal(findProjectFile(`${root}/home/repo/pkg/deep`, home), null);
    // Outside a repository the search goes up to the home folder, which counts.
    assert.equal(findProjectFile(`${root}/home/loose/sub`, home), `${root}/home/lazyshell.yml`);
    // Above home: never.
    Deno.removeSync(`${root}/home/lazyshell.yml`);
    Deno.writeTextFileSync(`${root}/lazyshell.yml`, "sessions: []\n");
    assert.equal(findProjectFile(`${root}/home/loose/sub`, home), null);
    // Outside home and any repository: up to the root of the file system.
    assert.equal(findProjectFile(`${root}/outside/a`, home), `${root}/lazyshell.yml`);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("loadProject: found upward, sessions run in the file's folder; --project stays relative to cwd", () => {
  const root = tree();
  try {
    const home = `${root}/home`;
    Deno.writeTextFileSync(`${root}/home/repo/lazyshell.yml`, "sessions:\n  - name: api\n");
    const found = loadProject({ cwd: `${root}/home/repo/pkg/deep`, home });
    assert.equal(found?.file, `${root}/home/repo/lazyshell.yml`);
    assert.equal(found?.sessions[0]?.cwd, `${root}/home/repo`);
    assert.equal(loadProject({ cwd: `${root}/home/loose`, home }), null);
    assert.throws(
      () => loadProject({ cwd: `${root}/home/repo/pkg`, home, file: "lazyshell.yml" }),
      /Project file not found: .*home\/repo\/pkg\/lazyshell\.yml/,
    );
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
