/**
 * What the live tools (main.ts, restore.ts, answer.ts, worktree.ts) share: the agent CLI set up
 * against the mock, lazyshell's config and hooks in its isolated HOME, the stamped log, the
 * PASS/FAIL list, and `lazyshell serve` (../abuse/server.ts spawnServe):
 * started with the CLI's environment, ready once its ready line names the
 * control socket (60 s at most), stopped with SIGTERM (SIGKILL 10 s later).
 * Its other stderr lines are kept for the report.
 */

import { request } from "../../src/ctl/client.ts";
import { codexNotifyLine } from "../../src/ipc/integrations.ts";
import { opencodePlugin } from "../../src/ipc/opencode_plugin.ts";
import { selfCommand } from "../../src/plugin/self.ts";
import type { AgentProfile, LaunchSpec, ScenarioName } from "../capture/profile.ts";
import { controlSocket, spawnServe } from "../abuse/server.ts";
import { captureProcesses, endProcesses } from "../capture/procs.ts";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");

export interface LiveServe extends AsyncDisposable {
  readonly child: Deno.ChildProcess;
  /** serve's ready line. */
  readonly ready: string;
  /** The control socket. */
  readonly sock: string;
  /** stderr lines so far. */
  readonly stderr: readonly string[];
  /** One control request; a refusal throws with its error. */
  call(verb: string, args: Record<string, unknown>, ms?: number): Promise<Record<string, unknown>>;
}

export async function startServe(env: Record<string, string>, cwd: string): Promise<LiveServe> {
  const serve = spawnServe(env, { cwd, quiet: false, readyMs: 60000 });
  const ready = await serve.ready.catch(async (error) => {
    await serve.stop();
    throw error;
  });
  const sock = controlSocket(ready);
  if (!sock) {
    await serve.stop();
    throw new Error(`serve runs without the control API: ${ready}`);
  }
  return {
    child: serve.child,
    ready,
    sock,
    get stderr() {
      return serve.stderr().split("\n").slice(0, -1);
    },
    async call(verb, args, ms = 15000) {
      const { response } = await request(sock, verb, args, ms);
      if (!response.ok) throw new Error(`${verb}: ${response.error}`);
      return response.result as Record<string, unknown>;
    },
    [Symbol.asyncDispose]: () => serve.stop().then(() => {}),
  };
}

/** The CLI's environment for `serve` and `ctl`: a runtime dir of the run's own, Deno's cache. */
export function liveEnv(base: Record<string, string>, runDir: string): Record<string, string> {
  return {
    ...base,
    XDG_RUNTIME_DIR: runDir,
    DENO_DIR: Deno.env.get("DENO_DIR") ?? "/root/.cache/deno",
    DENO_NO_UPDATE_CHECK: "1",
  };
}

/** A log line of the run, stamped with the seconds since `t0`. */
/**
 * Ends what a run left running under `home` (the agent CLIs and their
 * children), saying which through `log` when given.
 */
export async function endLeftovers(home: string, log?: (line: string) => void): Promise<void> {
  const left = captureProcesses(null, home);
  if (!left.length) return;
  const pids = await endProcesses(left.map((p) => p.pid));
  log?.(`ended leftover pids ${pids.join(" ")} (${left.map((p) => p.comm).join(" ")})`);
}

export function stampedLog(t0: number): (line: string) => void {
  return (line) => console.log(`${((Date.now() - t0) / 1000).toFixed(1).padStart(6)}s  ${line}`);
}

/** The agent CLI in the lab, set up for `scenario` against the mock (tools/capture/agents). */
export function setupAgent(
  agent: AgentProfile,
  lab: string,
  mock: { readonly url: string; readonly port: number },
  scenario: ScenarioName,
  name: string,
): Promise<LaunchSpec> {
  return agent.setup({
    lab,
    mockUrl: mock.url,
    mockPort: mock.port,
    scenario,
    name,
    scriptsDir: `${ROOT}/tools/capture/scripts`,
  });
}

/**
 * lazyshell's config.yml in the CLI's isolated HOME: setting XDG_CONFIG_HOME would hide the
 * CLIs' own seeded config (opencode reads $XDG_CONFIG_HOME/opencode).
 */
export function writeConfig(home: string, text: string): void {
  Deno.mkdirSync(`${home}/.config/lazyshell`, { recursive: true });
  Deno.writeTextFileSync(`${home}/.config/lazyshell/config.yml`, text);
}

/**
 * The CLI's command line for a session. With `hooks`, lazyshell's hooks are installed first in
 * the CLI's isolated HOME, as `lazyshell init --agents` prints them, and Claude runs as a plain
 * `claude` command (its `--settings FILE` left out) so that lazyshell injects its own hooks.
 */
export function agentCommand(agent: string, spec: LaunchSpec, hooks: boolean): string {
  if (hooks) installIntegration(agent, spec.env.HOME ?? "/nonexistent");
  const args = hooks && agent === "claude"
    ? spec.args.filter((a, i, all) => a !== "--settings" && all[i - 1] !== "--settings")
    : spec.args;
  return [spec.file, ...args].map(shellQuote).join(" ");
}

function installIntegration(agent: string, home: string): void {
  if (agent === "opencode") {
    Deno.writeTextFileSync(`${home}/.config/opencode/plugin/lazyshell.js`, opencodePlugin());
  } else if (agent === "codex") {
    const file = `${home}/.codex/config.toml`;
    const toml = Deno.readTextFileSync(file).replace(
      /^notify = .*$/m,
      codexNotifyLine(selfCommand()),
    );
    Deno.writeTextFileSync(file, toml);
  }
}

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

/** A run's verdict: one `PASS`/`FAIL` line per check. */
export function checkList(log: (line: string) => void) {
  const checks: [string, boolean][] = [];
  return {
    check(what: string, ok: boolean): void {
      checks.push([what, ok]);
      log(`${ok ? "PASS" : "FAIL"} ${what}`);
    },
    get count(): number {
      return checks.length;
    },
    get failed(): number {
      return checks.filter(([, ok]) => !ok).length;
    },
  };
}
