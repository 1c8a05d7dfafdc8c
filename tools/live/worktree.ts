/**
 * `deno task live-worktree <agent> [--lab DIR] [--hard-limit S]`
 *
 * A new agent session in its own worktree with a real agent CLI under the
 * capture mock (127.0.0.1 only): `lazyshell serve` (control on, a
 * `worktrees.setup` that copies an untracked file and prints a marker),
 * then `ctl new --agent <id> --worktree --prompt "LAB-TOOL: …"` in the
 * lab's git project. The driver plays the user through `ctl`: it trusts
 * the new folder when the CLI asks and approves the permission prompt
 * (`send --if-state blocked`). The verdict checks that the branch and
 * folder were made, the setup ran with its output on screen, the mock
 * received the prompt as a new turn exactly once, lazyshell's receipt says
 * the agent took it, the file the agent made is in the worktree, and the
 * main checkout has no trace of it.
 */

import { parseArgs } from "node:util";
import { AGENTS } from "../capture/agents/mod.ts";
import { startMockServer } from "../capture/mock/server.ts";
import { sleep } from "../capture/driver_util.ts";
import {
  checkList,
  endLeftovers,
  liveEnv,
  setupAgent,
  stampedLog,
  startServe,
  writeConfig,
} from "./serve.ts";
import { exists, readTextOrNull } from "../../src/util/fs.ts";
import { dataDir } from "../../src/config/paths.ts";
import { sh } from "../../src/git/test_util.ts";

const PROMPT = "LAB-TOOL: please create the marker file lab-file.txt";
export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      lab: { type: "string", default: Deno.env.get("LAB_DIR") ?? "/work/lab" },
      "hard-limit": { type: "string", default: "240" },
    },
  });
  const agent = positionals[0] ? AGENTS[positionals[0]] : undefined;
  if (!agent) {
    console.error(`Usage: deno task live-worktree <${Object.keys(AGENTS).join("|")}>`);
    return 2;
  }
  const log = stampedLog(Date.now());
  const tmp = Deno.makeTempDirSync({ prefix: "lazyshell-live-wt-" });
  Deno.mkdirSync(`${tmp}/run`, { mode: 0o700 });
  let prompts = 0;
  await using mock = await startMockServer({
    onEvent(e) {
      if (e.type === "request" && e.kind === "main") {
        log(`mock: request (${e.script})`);
        // The prompt as a new turn (not a tool result after it).
        if (e.script === "tool") prompts++;
      }
    },
  });
  const name = `live-${agent.id}-worktree`;
  const spec = await setupAgent(agent, values.lab, mock, "tool", name);
  const repo = spec.cwd;
  // The worktrees of an earlier run (beside the fresh work dir).
  try {
    Deno.removeSync(`${repo}.worktrees`, { recursive: true });
  } catch { /* none */ }
  // A first commit to branch from, and an untracked file the setup copies.
  sh(repo, "add", "-A");
  sh(repo, "commit", "-qm", "lab project");
  Deno.writeTextFileSync(`${repo}/.env.lab`, "LAB=1\n");
  Deno.writeTextFileSync(`${repo}/.git/info/exclude`, ".env.lab\n");
  writeConfig(
    `${spec.env.HOME}`,
    "control:\n  enabled: true\nworktrees:\n" +
      `  setup: 'cp "$LAZYSHELL_MAIN_CHECKOUT/.env.lab" . && echo lab-setup-done'\n`,
  );
  const env = liveEnv(spec.env, `${tmp}/run`);
  const checks = checkList(log);
  const check = checks.check;
  let target = "";
  {
    await using serve = await startServe(env, repo);
    try {
      const entry = await serve.call("new", {
        agent: agent.id,
        cwd: repo,
        worktree: true,
        prompt: PROMPT,
      }, 60000);
      target = String(entry.id);
      const wt = entry.worktree as { path: string; branch: string } | null;
      log(`${entry.name}: ${wt?.path} on ${wt?.branch}`);
      check(
        "a worktree folder on a new branch",
        !!wt && sh(repo, "branch", "--list", wt.branch).trim() !== "",
      );
      const deadline = Date.now() + Number(values["hard-limit"]) * 1000;
      let trusted = false;
      let approved = 0;
      let screen = "";
      // Play the user until the agent's file exists and its turn is over.
      while (Date.now() < deadline) {
        screen = ((await serve.call("read", { target })).lines as string[]).join("\n");
        const state = ((await serve.call("list", {})).sessions as { id: string; state: string }[])
          .find((s) => s.id === target)?.state;
        if (!trusted && agent.trustRe.test(screen)) {
          trusted = true;
          log("the CLI asks to trust the new folder: yes");
          for (const key of agent.trustKeys) {
            await serve.call("send", { target, text: key });
            await sleep(300);
          }
        } else if (agent.blockedRe.test(screen) && state === "blocked") {
          approved++;
          log("permission prompt: approve");
          await serve.call("send", { target, text: agent.approveKey, ifState: "blocked" })
            .catch((e) => log(`REFUSED ${e}`));
          await sleep(1000);
        } else if (
          wt && exists(`${wt.path}/lab-file.txt`) && (state === "done" || state === "idle")
        ) {
          break;
        }
        await sleep(250);
      }
      const tail = ((await serve.call("read", { target, tail: 400 })).lines as string[]).join("\n");
      check("the setup ran in the worktree, its output on screen", /lab-setup-done/.test(tail));
      check("the setup copied .env.lab", !!wt && exists(`${wt.path}/.env.lab`));
      check(`the mock received the prompt exactly once (${prompts})`, prompts === 1);
      // What lazyshell said of its first prompt (its log has the receipt).
      const logged = readTextOrNull(`${dataDir(env)}/lazyshell.log`) ?? "";
      const said = logged.split("\n").find((l) => l.includes("first prompt")) ?? "(nothing said)";
      check(`lazyshell's receipt: ${said}`, /first prompt taken/.test(said));
      check(
        "the agent's file is in the worktree",
        !!wt && exists(`${wt.path}/lab-file.txt`),
      );
      check(
        "the main checkout is untouched",
        !exists(`${repo}/lab-file.txt`) && sh(repo, "status", "--porcelain").trim() === "",
      );
      log(`approvals: ${approved}; screen at the end:\n${screen}`);
    } catch (error) {
      check(`no error (${(error as Error).message})`, false);
    } finally {
      if (target) await serve.call("kill", { target }, 10000).catch(() => {});
    }
  }
  await endLeftovers(spec.env.HOME ?? "/nonexistent");
  Deno.removeSync(tmp, { recursive: true });
  const failed = checks.failed;
  console.log(`\n== ${name}: ${checks.count - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
