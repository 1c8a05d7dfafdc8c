/**
 * `ctl new --agent ID [--prompt T] [--worktree]` over the control socket: a
 * catalog agent (fixtures/agents/fake-agent) starts in a new git worktree
 * named after its prompt, the prompt arrives once, `ctl wait` follows its
 * turn; bad combinations are one-line errors.
 */

import assert from "node:assert/strict";
import { startInstance } from "./control_helpers.ts";
import { exists } from "../src/util/fs.ts";
import { makeRepo, shell } from "../src/git/test_util.ts";
import type { SessionEntry } from "../src/control/entry.ts";
import type { DiffResult } from "../src/control/verbs/diff.ts";

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
  assert.equal(shell(repo, "git worktree list --porcelain").match(/^worktree /gm)?.length, 2);
  // Review and finishing (src/git/changes.ts, worktree_remove.ts) see the new worktree: its
  // branch and the agent's file; removal asks before it loses the uncommitted edit.
  const diff = await lzs.ok<DiffResult>("diff", { target: "add-a-changelog" });
  assert.equal(diff.branch, "add-a-changelog");
  assert.deepEqual(diff.files.map((f) => [f.path, f.status]), [["TASK.md", "untracked"]]);
  await lzs.ok("kill", { target: "add-a-changelog" });
  assert.match(await lzs.error("worktree-remove", { target: "add-a-changelog" }), /TASK\.md/);
  assert.ok(exists(`${entry.cwd}/TASK.md`), "nothing lost");
  assert.equal(shell(repo, "git status --porcelain").trim(), "", "the main checkout is untouched");
  Deno.removeSync(tmp, { recursive: true });
});

Deno.test("ctl new --agent claude --prompt: ready by Claude Code's idle rule, pasted once, taken by the receipt", async () => {
  // tests/testdata/input_agent.ts draws like Claude Code (its manifest's idle rule and input box
  // read it) and logs every read from its stdin; `claude` on PATH starts it.
  const { tmp, repo } = makeRepo("lzs-ctl-claude-");
  const bin = `${tmp}/bin`;
  Deno.mkdirSync(bin);
  Deno.copyFileSync(new URL("./testdata/input_agent.ts", import.meta.url), `${bin}/claude.ts`);
  Deno.writeTextFileSync(
    `${bin}/claude`,
    `#!/bin/sh\nMODE=submit exec ${Deno.execPath()} run -A --quiet ${bin}/claude.ts ${tmp}/reads.log\n`,
  );
  Deno.chmodSync(`${bin}/claude`, 0o755);
  await using lzs = await startInstance({
    env: { XDG_CONFIG_HOME: `${tmp}/config`, PATH: `${bin}:${Deno.env.get("PATH")}` },
  });
  const entry = await lzs.ok<SessionEntry>("new", {
    agent: "claude",
    cwd: repo,
    prompt: "Fix the parser please",
  });
  assert.equal(entry.name, "fix-the-parser-please");
  assert.equal(entry.worktree, null, "no worktree unless asked");
  assert.equal(entry.cwd, repo);
  // The receipt: the fake empties its box and shows Claude Code's working footer.
  await lzs.ok("wait", { target: entry.id, state: "working", timeout: 60 });
  const reads = () =>
    Deno.readTextFileSync(`${tmp}/reads.log`).split("\n").filter((l) => l !== "")
      .map((l) => (JSON.parse(l) as { data: string }).data).filter((d) => !d.startsWith("\x1b["));
  // Typed after it drew its idle screen (raw mode: nothing waited in the line discipline): the
  // text once, then one Enter.
  assert.deepEqual(reads(), ["Fix the parser please", "\r"]);
  Deno.removeSync(tmp, { recursive: true });
});
