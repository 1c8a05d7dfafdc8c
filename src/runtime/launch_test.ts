import assert from "node:assert/strict";
import { parseConfig } from "../config/config.ts";
import { makeRepo, shell } from "../git/test_util.ts";
import { testEnv, waitFor, waitForText } from "../session/test_util.ts";
import { exists } from "../util/fs.ts";
import { Runtime } from "./runtime.ts";
import { agentChoices, launchAgent } from "./launch.ts";
import type { PromptOutcome } from "./first_prompt.ts";

const FIXTURES = new URL("../../fixtures/agents/", import.meta.url).pathname;

/** A runtime whose catalog knows fixtures/agents/fake-agent, on PATH. */
function runtimeIn(tmp: string, config = "") {
  const agents = `${tmp}/config/lazyshell/agents`;
  Deno.mkdirSync(agents, { recursive: true });
  Deno.copyFileSync(`${FIXTURES}fake-agent.yml`, `${agents}/fake-agent.yml`);
  const env = testEnv({
    XDG_CONFIG_HOME: `${tmp}/config`,
    XDG_DATA_HOME: `${tmp}/data`,
    PATH: `${FIXTURES}:${Deno.env.get("PATH")}`,
  });
  return new Runtime({ env, config: parseConfig(config, "config.yml"), cwd: tmp });
}

/** The fake agent logs the prompts it reads there, and shows its prompt half a second late. */
function agentEnv(tmp: string) {
  return { FAKE_AGENT_LOG: `${tmp}/prompts.log`, FAKE_AGENT_DELAY: "0.5" };
}

function lines(file: string): string[] {
  return exists(file) ? Deno.readTextFileSync(file).split("\n").filter((l) => l !== "") : [];
}

Deno.test("a new agent session in a worktree: branch, folder, setup output, the prompt once", async () => {
  const { tmp, repo } = makeRepo("lazyshell-launch-");
  await using runtime = runtimeIn(
    tmp,
    `worktrees:\n  dir: "../wt"\n  setup: 'cp "$LAZYSHELL_MAIN_CHECKOUT/.env" . && echo setup-ran'\n`,
  );
  const outcome = Promise.withResolvers<PromptOutcome>();
  const session = await launchAgent(runtime, {
    agent: "fake-agent",
    cwd: repo,
    prompt: "Fix the login bug, then run the tests",
    worktree: true,
    env: agentEnv(tmp),
    onPrompt: outcome.resolve,
  });
  const path = `${tmp}/wt/fix-the-login-bug-then`;
  assert.equal(session.name, "fix-the-login-bug-then", "named after the task");
  assert.deepEqual(session.worktree, {
    path,
    branch: "fix-the-login-bug-then",
    base: shell(repo, "git rev-parse HEAD").trim(),
    repo,
  });
  assert.equal(shell(path, "git symbolic-ref --short HEAD").trim(), "fix-the-login-bug-then");
  await waitForText(session, /^setup-ran$/m);
  assert.match(session.visibleLines().join("\n"), /^\$ cp "\$LAZYSHELL_MAIN_CHECKOUT\/.env" \./m);
  assert.ok(exists(`${path}/.env`), "the setup command ran in the worktree");
  assert.deepEqual(await outcome.promise, { type: "received", id: session.id });
  // The turn ends and the prompt shows again: nothing is typed a second time.
  await waitFor(
    session,
    () => /done: .*\n+fake>$/.test(session.visibleLines().join("\n").trimEnd()),
  );
  assert.deepEqual(lines(`${tmp}/prompts.log`), ["Fix the login bug, then run the tests"]);
  assert.deepEqual(lines(`${tmp}/prompts.log.early`), [], "nothing typed before it was ready");
  assert.equal(Deno.readTextFileSync(`${path}/TASK.md`), "Fix the login bug, then run the tests\n");
  assert.equal(runtime.view(session.id)?.worktree?.branch, "fix-the-login-bug-then");
  assert.equal(shell(repo, "git status --porcelain").trim(), "", "the main checkout is untouched");
  Deno.removeSync(tmp, { recursive: true });
});

Deno.test("a failing setup command ends the session with its code, its output on screen", async () => {
  const { tmp, repo } = makeRepo("lazyshell-launch-");
  await using runtime = runtimeIn(tmp, `worktrees:\n  setup: "echo no-deps; exit 3"\n`);
  const session = await launchAgent(runtime, { agent: "fake-agent", cwd: repo, worktree: true });
  await session.exited;
  assert.equal(session.exitCode, 3);
  const screen = session.visibleLines().join("\n");
  assert.match(screen, /^no-deps$/m);
  assert.match(screen, /lazyshell: the setup command failed \(exit 3\)/);
  assert.doesNotMatch(screen, /fake-agent starting/, "the agent never started");
  Deno.removeSync(tmp, { recursive: true });
});

Deno.test("launch refuses an unknown or missing agent, a folder outside git, a taken name", async () => {
  const { tmp, repo } = makeRepo("lazyshell-launch-");
  await using runtime = runtimeIn(tmp);
  await assert.rejects(launchAgent(runtime, { agent: "nope" }), /Unknown agent: nope \(known: /);
  await assert.rejects(
    launchAgent(runtime, { agent: "aider", cwd: repo }),
    /Aider is not installed \(aider not on PATH\)|not installed/,
  );
  await assert.rejects(
    launchAgent(runtime, { agent: "fake-agent", cwd: tmp, worktree: true }),
    /Not in a git repository: /,
  );
  const first = await launchAgent(runtime, { agent: "fake-agent", cwd: repo });
  assert.equal(first.name, "fake-agent");
  const second = await launchAgent(runtime, { agent: "fake-agent", cwd: repo });
  assert.equal(second.name, "fake-agent-2", "a derived name is made unique");
  await assert.rejects(
    launchAgent(runtime, { agent: "fake-agent", cwd: repo, name: "fake-agent" }),
    /A session is already named fake-agent/,
  );
  const choices = await agentChoices(runtime);
  assert.deepEqual(choices[0], {
    id: "fake-agent",
    name: "Fake Agent",
    installed: true,
    version: null,
  });
  assert.ok(choices.findIndex((c) => !c.installed) > 0, "installed ones first");
  Deno.removeSync(tmp, { recursive: true });
});
