/**
 * The worktrees lazyshell made, past their sessions (docs/changes.md, "Worktrees lazyshell made"):
 * `ctl new --agent --worktree` records one, `ctl worktrees` lists it, `ctl worktree-remove`
 * takes its branch or folder with no session left, and a removed one is no longer listed.
 * A real Runtime, the control socket, a catalog agent (fixtures/agents/fake-agent), real git.
 */

import assert from "node:assert/strict";
import { runCtl } from "../src/ctl/client.ts";
import { startInstance } from "./control_helpers.ts";
import { exists } from "../src/util/fs.ts";
import { makeRepo, shell } from "../src/git/test_util.ts";
import type { SessionEntry } from "../src/control/entry.ts";
import type { WorktreeListing } from "../src/control/worktree_finish.ts";

const FIXTURES = new URL("../fixtures/agents/", import.meta.url).pathname;

async function ctl(control: string, ...argv: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const io = { out: (t: string) => lines.push(t), err: (t: string) => lines.push(t) };
  const code = await runCtl(argv, { LAZYSHELL_CONTROL: control }, io);
  return { code, out: lines.join("\n") };
}

Deno.test("ctl worktrees lists what lazyshell made; worktree-remove takes a branch or folder, no session needed", async () => {
  const { tmp, repo } = makeRepo("lzs-worktrees-");
  const agents = `${tmp}/config/lazyshell/agents`;
  Deno.mkdirSync(agents, { recursive: true });
  Deno.copyFileSync(`${FIXTURES}fake-agent.yml`, `${agents}/fake-agent.yml`);
  await using lzs = await startInstance({
    env: { XDG_CONFIG_HOME: `${tmp}/config`, PATH: `${FIXTURES}:${Deno.env.get("PATH")}` },
  });
  const control = lzs.sockets.control!.path;
  assert.deepEqual(await ctl(control, "worktrees"), {
    code: 0,
    out: "No worktrees made by lazyshell",
  });
  const made: SessionEntry[] = [];
  for (const name of ["one", "two"]) {
    made.push(
      await lzs.ok<SessionEntry>("new", { agent: "fake-agent", cwd: repo, worktree: true, name }),
    );
  }
  const [one, two] = made as [SessionEntry, SessionEntry];
  const listed = await lzs.ok<{ worktrees: WorktreeListing[] }>("worktrees");
  assert.deepEqual(
    listed.worktrees.map((w) => [w.path, w.branch, w.session, w.state, w.usedBy]),
    [
      [one.cwd, "one", "one", "present", [`${one.id} (one)`]],
      [two.cwd, "two", "two", "present", [`${two.id} (two)`]],
    ],
  );
  const text = await ctl(control, "worktrees");
  assert.match(text.out, /^PATH +BRANCH +MADE FOR +NOW$/m);
  assert.match(text.out, new RegExp(`^${one.cwd} +one +one +in use: ${one.id} \\(one\\)$`, "m"));

  // The sessions end and are removed: nothing of them is left but the worktrees.
  for (const s of made) {
    await lzs.ok("kill", { target: s.id });
  }
  for (const s of made) {
    while (lzs.runtime.sessions.get(s.id)?.status === "running") {
      await new Promise((r) => setTimeout(r, 50));
    }
    lzs.runtime.sessions.remove(s.id);
  }
  // By branch: clean and merged (nothing committed), folder and branch go.
  assert.deepEqual(await ctl(control, "worktree-remove", "one"), {
    code: 0,
    out: `Removed worktree ${one.cwd}\nDeleted branch one`,
  });
  assert.ok(!exists(one.cwd));
  // By folder, keeping the branch.
  assert.deepEqual(await ctl(control, "worktree-remove", two.cwd!, "--keep-branch"), {
    code: 0,
    out: `Removed worktree ${two.cwd}\nKept branch two`,
  });
  assert.match(shell(repo, "git branch --list two"), /two/);
  assert.deepEqual(await ctl(control, "worktrees"), {
    code: 0,
    out: "No worktrees made by lazyshell",
  });
  assert.deepEqual(await ctl(control, "worktree-remove", "nope"), {
    code: 1,
    out: "lazyshell ctl: No session, worktree folder or branch of a worktree lazyshell made: " +
      "nope (lazyshell ctl worktrees lists them; a folder is an absolute path)",
  });
  Deno.removeSync(tmp, { recursive: true });
});
