/**
 * `deno task live <claude|codex|opencode> restore [--lab DIR]`: a real
 * agent CLI continues its conversation after its lazyshell server was
 * killed (docs/restore.md). Against the capture mock on 127.0.0.1:
 *
 * 1. `lazyshell serve` (control API on; with `--hooks`, lazyshell's hooks
 *    installed as `--hooks` does, else the default config and the CLI's
 *    plain command line), the agent in a session — its command, or with
 *    `--typed` typed at the prompt of the session's shell — and a first
 *    turn whose prompt carries a marker word;
 * 2. the conversation id reaches the session (`ctl list`'s `conversation`:
 *    from a hook, or from the agent's own store) and the state file;
 * 3. SIGKILL to the server; a new server; `lazyshell restore --all`;
 * 4. a second prompt to the restored agent: PASS when that turn's request
 *    to the mock carries the first turn's marker — the mock sees the
 *    conversation continue.
 *
 * Leftovers (Codex's app-server daemon) are ended by PID at the end.
 */

import { AGENTS } from "../capture/agents/mod.ts";
import { startMockServer } from "../capture/mock/server.ts";
import { sleep } from "../capture/driver_util.ts";
import {
  agentCommand,
  endLeftovers,
  liveEnv,
  type LiveServe,
  setupAgent,
  stampedLog,
  startServe,
  writeConfig,
} from "./serve.ts";
import { lazyshell } from "../abuse/server.ts";
import { parseState, RESTORED_RULE } from "../../src/restore/state_file.ts";

export interface RestoreRun {
  /** lazyshell's hooks installed (else the default config: the agent's own store tells). */
  readonly hooks: boolean;
  /** The agent typed at the prompt of the session's shell (else the session's command). */
  readonly typed: boolean;
}

export async function runRestore(
  agentId: string,
  lab: string,
  hardLimitS: number,
  run: RestoreRun = { hooks: true, typed: false },
) {
  const agent = AGENTS[agentId];
  if (!agent || !["claude", "codex", "opencode"].includes(agentId)) {
    console.error("Usage: deno task live <claude|codex|opencode> restore");
    return 2;
  }
  const log = stampedLog(Date.now());
  const marker = `PINEAPPLE-${Math.floor(Math.random() * 1e6)}`;
  const bodies: { t: number; text: string }[] = [];
  await using mock = await startMockServer({
    onRequest: (r) => {
      if (typeof r.body === "object" && r.body !== null) {
        bodies.push({ t: Date.now(), text: JSON.stringify(r.body) });
      }
    },
    onEvent: (e) => {
      if (e.kind === "main" && (e.type === "stream_start" || e.type === "turn_end")) {
        log(`mock: ${e.type}`);
      }
    },
  });
  const name = `live-${agent.id}-restore${run.hooks ? "-hooks" : ""}${run.typed ? "-typed" : ""}`;
  const spec = await setupAgent(agent, lab, mock, "tool", name);
  const home = spec.env.HOME!;
  const tmp = Deno.makeTempDirSync({ prefix: "lazyshell-live-restore-" });
  Deno.mkdirSync(`${tmp}/run`, { mode: 0o700 });
  writeConfig(
    home,
    run.hooks
      ? "control:\n  enabled: true\nagents:\n  claude:\n    inject_hooks: true\n"
      : "control:\n  enabled: true\n",
  );
  // With --hooks, lazyshell's hooks as `--hooks` installs them: the conversation ids come from
  // them. Without, nothing of lazyshell's in the CLI's config, and Claude without the lab's
  // logging settings: its plain command line.
  const command = run.hooks ? agentCommand(agent.id, spec, true) : plainCommand(agent.id, spec);
  const env = liveEnv(spec.env, `${tmp}/run`);
  const stateFile = `${home}/.local/state/lazyshell/sessions-default.jsonl`;
  let serve: LiveServe | null = null;
  let verdict = "FAIL";
  const deadline = setTimeout(() => {
    log("HARD LIMIT reached");
    if (serve) serve.child.kill("SIGKILL");
  }, hardLimitS * 1000);
  try {
    log(
      `${name} (${spec.version}): serve + ${command}${
        run.typed ? " typed" : ""
      } (mock ${mock.url})`,
    );
    serve = await startServe(env, spec.cwd);
    const s1 = serve;
    const call: Call = (verb, a) => s1.call(verb, a);
    const entry = await call("new", {
      ...(run.typed ? {} : { command }),
      cwd: spec.cwd,
      name: agent.id,
    });
    const target = String(entry.id);
    if (run.typed) {
      await waitScreen(call, target, /[$#] *$/m, 30_000, "the shell's prompt", log);
      await call("send", { target, text: `${command}\r` });
    }
    await waitScreen(call, target, agent.idleRe, 300_000, "the agent's prompt", log);
    await typePrompt(call, target, `Remember the word ${marker} for later, please`);
    await submitted(call, target, () => bodies.some((b) => b.text.includes(marker)), log);
    // None in 90 s: still killed and restored, to show what the restore does then.
    const conversation = await waitConversation(call, target, log);
    if (conversation) log(`conversation ${conversation.id} (${conversation.source})`);
    // The answer streamed (a turn end, or a request the mock answers at once), the CLI idle again.
    await sleep(3000);
    const idle = (screen: string) => agent.idleRe.test(screen) && !agent.busyRe?.test(screen);
    await waitScreen(call, target, idle, 120_000, "the end of the first turn", log);
    await until(
      () => {
        try {
          const saved = parseState(Deno.readTextFileSync(stateFile)).sessions;
          return saved.some((s) =>
            conversation ? s.conversation?.id === conversation.id : s.name === agent.id
          );
        } catch {
          return false;
        }
      },
      20_000,
      "the conversation in the state file",
    );
    log(`state file holds the ${conversation ? "conversation" : "session"}; kill -9 the server`);
    serve.child.kill("SIGKILL");
    const killedAt = Date.now();
    await serve.child.status;
    await sleep(1000);

    serve = await startServe(env, spec.cwd);
    log(serve.ready.replace(/^.*?\(/, "new server: ("));
    const s2 = serve;
    const call2: Call = (verb, a) => s2.call(verb, a);
    const restored = await lazyshell(env, ["restore", "--all"], spec.cwd);
    const restoredText = restored.stdout.trim();
    log(`lazyshell restore --all: ${restoredText}`);
    const list = (await call2("list", {})).sessions as { id: string; name: string }[];
    const again = list.find((s) => s.name === agent.id);
    if (!again) throw new Error("the session was not restored");
    // Below the old screen the restore shows first (that one has a prompt on it too), or on
    // the alternate screen of a full-screen agent.
    const resumed = (screen: string) => {
      const at = screen.lastIndexOf(RESTORED_RULE);
      return agent.idleRe.test(at < 0 ? screen : screen.slice(at));
    };
    await waitScreen(call2, again.id, resumed, 300_000, "the resumed agent's prompt", log);
    const before = bodies.length;
    await typePrompt(call2, again.id, "What was the word I asked you to remember?");
    const asked = () => bodies.slice(before).some((b) => b.text.includes("What was the word"));
    await submitted(call2, again.id, asked, log);
    const next = bodies.slice(before).find((b) => b.text.includes("What was the word"))!;
    const carried = next.text.includes(marker);
    log(`the resumed agent's request ${carried ? "carries" : "does NOT carry"} ${marker}`);
    log(`resumed ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill`);
    verdict = carried && /resumes/.test(restoredText) ? "PASS" : "FAIL";
  } catch (error) {
    log(`error: ${(error as Error).message}`);
  } finally {
    clearTimeout(deadline);
    if (serve) await serve[Symbol.asyncDispose]();
    await endLeftovers(home, log);
    Deno.removeSync(tmp, { recursive: true });
  }
  console.log(`\n== ${name} (${spec.version}): ${verdict}`);
  return verdict === "PASS" ? 0 : 1;
}

/** The CLI's command line as the lab sets it up, Claude without the lab's logging settings. */
export function plainCommand(
  agent: string,
  spec: { file: string; args: readonly string[] },
): string {
  const args = agent === "claude"
    ? spec.args.filter((a, i, all) => a !== "--settings" && all[i - 1] !== "--settings")
    : spec.args;
  return [spec.file, ...args].map((s) =>
    /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`
  )
    .join(" ");
}

export type Call = (verb: string, a: Record<string, unknown>) => Promise<Record<string, unknown>>;

export async function waitScreen(
  call: Call,
  target: string,
  ready: RegExp | ((screen: string) => boolean),
  ms: number,
  what: string,
  log: (line: string) => void,
): Promise<void> {
  const end = Date.now() + ms;
  let screen = "";
  while (Date.now() < end) {
    screen = ((await call("read", { target })).lines as string[]).join("\n");
    if (typeof ready === "function" ? ready(screen) : ready.test(screen)) {
      return log(`${what} is on screen`);
    }
    await sleep(300);
  }
  throw new Error(`no ${what} in ${ms / 1000} s; screen:\n${screen}`);
}

export async function typePrompt(call: Call, target: string, text: string): Promise<void> {
  for (const ch of text) {
    await call("send", { target, text: ch });
    await sleep(25);
  }
  await sleep(700);
  await call("send", { target, text: "\r" });
}

/**
 * Waits for the prompt's request to reach the mock. Codex under load may
 * take a minute to send its first request (tools/capture/README.md): Enter
 * again after 60 s, as the capture driver does.
 */
export async function submitted(
  call: Call,
  target: string,
  arrived: () => boolean,
  log: (line: string) => void,
): Promise<void> {
  try {
    await until(arrived, 60_000, "the request");
  } catch {
    log("no request 60 s after Enter: pressing Enter again");
    await call("send", { target, text: "\r" });
    await until(arrived, 120_000, "the request");
  }
}

export async function waitConversation(call: Call, target: string, log: (line: string) => void) {
  const end = Date.now() + 90_000;
  while (Date.now() < end) {
    const list = (await call("list", {})).sessions as {
      id: string;
      conversation: { id: string; source: string } | null;
    }[];
    const c = list.find((s) => s.id === target)?.conversation;
    if (c) return c;
    await sleep(300);
  }
  log("no conversation id reached the session in 90 s");
  return null;
}

export async function until(test: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}
