/**
 * `x` on a session in a worktree lazyshell made asks what becomes of the worktree
 * (docs/changes.md): keep it, remove it, or remove it and its branch. The loop (TuiApp) on a
 * real Runtime, real PTY sessions and real git worktrees.
 */

import assert from "node:assert/strict";
import { appLab } from "./app_lab.ts";
import { addWorktree } from "../src/git/worktree_add.ts";
import { makeRepo, shell } from "../src/git/test_util.ts";
import { exists } from "../src/util/fs.ts";
import { view } from "../src/tui/core/view/mod.ts";
import { resolveKeymap } from "../src/tui/core/keymap.ts";

const WAIT = 30_000;

async function until(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + WAIT;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

Deno.test("x on a worktree session: k keeps the worktree, w removes it, b removes it and its branch", async () => {
  const { tmp, repo } = makeRepo("lzs-tui-worktree-");
  await using t = appLab("lazyshell-tui-worktree-", { cols: 120, rows: 30 });
  const { runtime, app } = t;
  const start = async (name: string) => {
    const info = await addWorktree(repo, `${tmp}/wt/${name}`, name);
    runtime.worktrees.add(info, name);
    const s = runtime.createSession({ name, cwd: info.path, worktree: info, command: "sleep 600" });
    app.dispatch({ type: "select", id: s.id });
    return { s, info };
  };
  const branches = () => shell(repo, "git branch --format='%(refname:short)'").trim().split("\n");
  const recorded = () => runtime.worktrees.list().map((r) => r.branch);

  // k: the session ends as any other; the worktree and its record stay.
  const keep = await start("keep");
  app.feed("x");
  assert.equal(app.state.overlay?.type, "worktree-choice");
  // The question fits the hint bar at 80 columns.
  const bar = view({ ...app.state, cols: 80, rows: 24 }, {
    keymap: resolveKeymap().keymap,
    screen: null,
    tabLines: null,
  }).toText().split("\n").at(-1)!;
  assert.equal(
    bar.trimEnd(),
    "End keep; its worktree: k keep · w remove · b remove + branch · esc cancel",
  );
  app.feed("k");
  await until(() => keep.s.status === "exited", "keep to exit");
  assert.ok(exists(keep.info.path));
  assert.deepEqual(recorded(), ["keep"]);

  // w: ended, removed from the list, the folder removed, the branch kept.
  const folder = await start("folder");
  app.feed("x");
  app.feed("w");
  await until(
    () => /Removed worktree .*folder · Kept branch folder/.test(app.state.message?.text ?? ""),
    "the report",
  );
  assert.ok(!exists(folder.info.path));
  assert.equal(runtime.sessions.get(folder.s.id), undefined, "the session is removed");
  assert.ok(branches().includes("folder"));
  assert.deepEqual(recorded(), ["keep"]);

  // b: the folder and the branch go.
  const both = await start("both");
  app.feed("xb");
  await until(() => /Deleted branch both/.test(app.state.message?.text ?? ""), "the report");
  assert.ok(!exists(both.info.path));
  assert.ok(!branches().includes("both"));

  // b with uncommitted work: refused, nothing lost, said in one line.
  const dirty = await start("dirty");
  Deno.writeTextFileSync(`${dirty.info.path}/work.txt`, "unsaved\n");
  app.feed("xb");
  await until(() => /^Kept worktree/.test(app.state.message?.text ?? ""), "the refusal");
  assert.match(app.state.message!.text, /uncommitted changes \(1 file: work\.txt\)/);
  assert.match(app.state.message!.text, /lazyshell ctl worktree-remove dirty/);
  assert.ok(exists(`${dirty.info.path}/work.txt`));
  assert.ok(recorded().includes("dirty"));

  // esc: nothing happens.
  app.dispatch({ type: "select", id: keep.s.id });
  app.feed("x\x1b");
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(app.state.overlay, null);
  assert.ok(runtime.sessions.get(keep.s.id));
  Deno.removeSync(tmp, { recursive: true });
});
