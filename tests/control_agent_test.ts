/**
 * `ctl new --agent ID [--prompt T] [--worktree]` over the control socket: a
 * catalog agent (fixtures/agents/fake-agent) starts in a new git worktree
 * named after its prompt, the prompt arrives once, `ctl wait` follows its
 * turn; bad combinations are one-line errors.
 */

import assert from "node:assert/strict";
import { startInstance } from "./control_helpers.ts";
import { makeRepo, sh } from "../src/git/test_repo.ts";
import type { SessionEntry } from "../src/control/entry.ts";

const FIXTURES = new URL("../fixtures/agents/", import.meta.url).pathname;

Deno.test("ctl new --agent --worktree --prompt: a branch, a folder, the prompt once, a turn", async () => {
  const { tmp, repo } = makeRepo("lzs-ctl-agent-");
  const agents = `${tmp}/config/lazyshell/agents`;
  Deno.mkdirSync(agents, { recursive: true });
  Deno.copyFileSync(`${FIXTURES}fake-agent.yml`, `${agents}/fake-agent.yml`);
  await using lzs = await startInstance({
    env: { XDG_CONFIG_HOME: `${tmp}/config`, PATH: `${FIXTURES}:${Deno.env.get("PATH")}` },
  });
  assert.match(await lzs.error("new", { prompt: "x" }), /--prompt and --worktree go with --agent/);
  assert.match(
    await lzs.error("new", { agent: "fake-agent", command: "ls" }),
    /Give --agent or --command, not both/,
  );
  assert.match(await lzs.error("new", { agent: "nope" }), /Unknown agent: nope/);
  const entry = await lzs.ok<SessionEntry>("new", {
    agent: "fake-agent",
    cwd: repo,
    worktree: true,
    prompt: "Add a changelog",
  });
  assert.equal(entry.name, "add-a-changelog");
  assert.equal(entry.worktree?.branch, "add-a-changelog");
  assert.equal(entry.cwd, `${tmp}/repo.worktrees/add-a-changelog`);
  await lzs.ok("wait", { target: entry.id, state: "done", timeout: 60 });
  assert.equal(Deno.readTextFileSync(`${entry.cwd}/TASK.md`), "Add a changelog\n");
  assert.equal(sh(repo, "git worktree list --porcelain").match(/^worktree /gm)?.length, 2);
  Deno.removeSync(tmp, { recursive: true });
});
