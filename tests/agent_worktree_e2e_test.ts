/**
 * End to end, as a person uses it: the real program (`deno run -A
 * main.ts`) in a real PTY, its lasting server in the background, a real git
 * repository, and an agent in a real PTY (fixtures/agents/fake-agent, no
 * model needed). `N` starts the agent in a new worktree: the branch and
 * folder exist, the setup command ran with its output on screen, the first
 * prompt arrives exactly once and only once the agent was ready, the
 * receipt shows in the bottom line, and the main checkout is untouched.
 * Waits are on screen text, files and `ctl wait`, never sleeps.
 */

import assert from "node:assert/strict";
import { SessionStore } from "../src/session/store.ts";
import { screenText, testEnv, waitFor, waitForText } from "../src/session/test_util.ts";
import { makeRepo, shell } from "../src/git/test_util.ts";
import { exists } from "../src/util/fs.ts";
import { lazyshell } from "../tools/abuse/server.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const MAIN = `${ROOT}main.ts`;
const FIXTURES = `${ROOT}fixtures/agents`;
const WAIT = 30_000;
const DOWN = "\x1b[B";

Deno.test("N: an agent in a new worktree, the setup on its screen, its first prompt once", async () => {
  const { tmp, repo } = makeRepo("lazyshell-agent-e2e-");
  const config = `${tmp}/config/lazyshell`;
  Deno.mkdirSync(`${config}/agents`, { recursive: true });
  Deno.mkdirSync(`${tmp}/run`, { mode: 0o700 });
  Deno.copyFileSync(`${FIXTURES}/fake-agent.yml`, `${config}/agents/fake-agent.yml`);
  Deno.writeTextFileSync(
    `${config}/config.yml`,
    "control:\n  enabled: true\nworktrees:\n  dir: ../wt\n" +
      `  setup: 'cp "$LAZYSHELL_MAIN_CHECKOUT/.env" . && echo setup-ran-$((6*7))'\n`,
  );
  const env = testEnv({
    SHELL: "/bin/bash",
    XDG_CONFIG_HOME: `${tmp}/config`,
    XDG_DATA_HOME: `${tmp}/data`,
    XDG_RUNTIME_DIR: `${tmp}/run`,
    PATH: `${FIXTURES}:${Deno.env.get("PATH")}`,
    FAKE_AGENT_LOG: `${tmp}/prompts.log`,
    FAKE_AGENT_DELAY: "0.5",
  });
  const ok = async (...args: string[]) => {
    const out = await lazyshell(env, args);
    const text = out.stdout + out.stderr;
    assert.equal(out.code, 0, `lazyshell ${args.join(" ")}: ${text}`);
    return text;
  };
  const store = new SessionStore({ shell: "/bin/bash", env, cwd: repo, cols: 130, rows: 40 });
  try {
    const tui = store.create({ command: `exec ${Deno.execPath()} run -A --quiet ${MAIN}` });
    await waitForText(tui, "Press n to start a shell", WAIT); // the TUI is up (no plugin needed)

    // The form: the fake agent, a prompt, a new worktree.
    tui.write("N");
    await waitForText(tui, "New agent session", WAIT);
    await waitFor(tui, () => /Fake Agent/.test(screenText(tui)), WAIT, "the agents");
    for (let i = 0; i < 20 && !/▸ Fake Agent/.test(screenText(tui)); i++) {
      const before = screenText(tui);
      tui.write(DOWN);
      await waitFor(tui, () => screenText(tui) !== before, WAIT, "the next agent");
    }
    tui.write("\t\tWrite the changelog");
    await waitForText(tui, "write-the-changelog", WAIT); // named after the prompt
    tui.write("\t\t ");
    await waitForText(tui, "on branch write-the-changelog", WAIT);
    tui.write("\r");

    // The setup ran in the new worktree, its output on the session's screen.
    await waitForText(tui, "setup-ran-42", WAIT);
    // The receipt of the first prompt, in the bottom line.
    await waitForText(tui, "write-the-changelog: first prompt taken", WAIT);
    const wt = `${tmp}/wt/write-the-changelog`;
    assert.equal(shell(wt, "git symbolic-ref --short HEAD").trim(), "write-the-changelog");
    assert.ok(exists(`${wt}/.env`), "the setup copied .env into the worktree");
    await ok("ctl", "wait", "write-the-changelog", "--state", "done", "--timeout", "60");
    const log = () => Deno.readTextFileSync(`${tmp}/prompts.log`).split("\n").filter(Boolean);
    assert.deepEqual(log(), ["Write the changelog"], "the first prompt arrived once");
    assert.ok(!exists(`${tmp}/prompts.log.early`), "nothing was typed before the agent was ready");

    // The agent's edit is in its worktree; the main checkout is untouched: clean, same README,
    // its own .env, no TASK.md.
    assert.equal(Deno.readTextFileSync(`${wt}/TASK.md`), "Write the changelog\n");
    assert.equal(shell(repo, "git status --porcelain").trim(), "");
    assert.equal(shell(repo, "git symbolic-ref --short HEAD").trim(), "main");
    assert.equal(Deno.readTextFileSync(`${repo}/README.md`), "hello\n");
    assert.ok(exists(`${repo}/.env`) && !exists(`${repo}/TASK.md`));
    assert.deepEqual(log(), ["Write the changelog"], "still once");

    // Quitting asks (the agent runs); y ends it.
    tui.write("q");
    await waitForText(tui, "1 session still running", WAIT);
    tui.write("y");
    await waitFor(tui, () => tui.status === "exited", WAIT, "lazyshell to exit");
    assert.equal(tui.exitCode, 0, screenText(tui));
  } finally {
    await store[Symbol.asyncDispose]();
    await lazyshell(env, ["kill-server"]);
    Deno.removeSync(tmp, { recursive: true });
  }
});
