/**
 * `deno task live-answer <claude|codex|opencode> [--lab DIR] [--hard-limit S]`
 *
 * Answering a real agent CLI's permission prompts through `lazyshell ctl
 * answer` (docs/control-api.md "Answering a prompt"), under the capture
 * mock (127.0.0.1 only). The CLI runs in `lazyshell serve`; four turns each
 * make the mock ask for a shell tool (`touch lab-file.txt`), and once
 * lazyshell reports the session blocked with a prompt the driver answers:
 *
 * 1. `ctl answer --approve --json`: the receipt says it left the prompt,
 *    the file exists, the mock received the tool's result;
 * 2. `ctl answer --deny --json`: the receipt, no file;
 * 3. the screen changes between reading and answering (Esc through `ctl
 *    send`, so the prompt is gone): `ctl answer --approve` is refused with
 *    nothing typed, no file;
 * 4. `ctl answer --option N` (an option that neither approves nor denies,
 *    else 1): the receipt, and the file when N is not the denying option.
 *
 * One PASS/FAIL line per check; exit 0 when all pass.
 */

import { parseArgs } from "node:util";
import { AGENTS } from "../capture/agents/mod.ts";
import { startMockServer } from "../capture/mock/server.ts";
import { sleep } from "../capture/driver_util.ts";
import {
  agentCommand,
  checkList,
  endLeftovers,
  liveEnv,
  type LiveServe,
  setupAgent,
  stampedLog,
  startServe,
  writeConfig,
} from "./serve.ts";
import { exists } from "../../src/util/fs.ts";
import { lazyshell } from "../abuse/server.ts";
import { type TuiClient, tuiClient } from "./answer_tui.ts";
import type { Prompt } from "../../src/model/prompt.ts";

const FILE = "lab-file.txt";

type Round = "approve" | "deny" | "changed" | "option" | "tui" | "tui-changed";
const ROUNDS: readonly Round[] = ["approve", "deny", "changed", "option"];
/** With `--tui`: the same through a real client's keys (./answer_tui.ts). */
const TUI_ROUNDS: readonly Round[] = ["tui", "tui-changed"];

interface Listed {
  id: string;
  state: string | null;
  prompt: Prompt | null;
}

/** The option `--option N` picks: one that neither approves nor denies, else 1. */
export function otherOption(prompt: Prompt): number {
  const i = prompt.options.findIndex((_, k) => k + 1 !== prompt.approve && k + 1 !== prompt.deny);
  return i < 0 ? 1 : i + 1;
}

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      lab: { type: "string", default: Deno.env.get("LAB_DIR") ?? "/work/lab" },
      "hard-limit": { type: "string", default: "420" },
      tui: { type: "boolean", default: false },
    },
  });
  const id = positionals[0] ?? "";
  const agent = AGENTS[id];
  if (!agent || !["claude", "codex", "opencode"].includes(id)) {
    console.error("Usage: deno task live-answer <claude|codex|opencode> [--lab DIR]");
    return 2;
  }
  const t0 = Date.now();
  const deadline = t0 + Number(values["hard-limit"]) * 1000;
  const log = stampedLog(t0);
  const tmp = Deno.makeTempDirSync({ prefix: "lazyshell-live-answer-" });
  Deno.mkdirSync(`${tmp}/run`, { mode: 0o700 });
  // The mock's log: each main request's script; `final` follows a tool's result.
  const mockLog: string[] = [];
  await using mock = await startMockServer({
    onRequest(r) {
      if (Deno.env.get("LIVE_DEBUG")) {
        log(
          `mock body: ${
            JSON.stringify((r.body as { messages?: unknown[] }).messages?.slice(-2)).slice(0, 1500)
          }`,
        );
      }
    },
    onEvent(e) {
      if (e.type === "request" && e.kind === "main") {
        mockLog.push(e.script ?? "");
        log(`mock: request (${e.script})`);
      }
    },
  });
  const name = `live-${agent.id}-answer`;
  const spec = await setupAgent(agent, values.lab, mock, "tool", name);
  const home = spec.env.HOME!;
  writeConfig(home, "control:\n  enabled: true\n");
  const env = liveEnv(spec.env, `${tmp}/run`);
  const checks = checkList(log);
  const check = checks.check;
  /** `lazyshell ctl …` as a user runs it: its own process, finding the server by itself. */
  const ctl = async (...args: string[]) => {
    const out = await lazyshell(env, ["ctl", ...args], spec.cwd);
    return { code: out.code, out: out.stdout.trim(), err: out.stderr.trim() };
  };
  let target = "";
  let tui: TuiClient | null = null;
  /**
   * Types a prompt with `send --enter` and its receipt. Codex takes no turn
   * until its app-server is up, under load a minute after its composer
   * shows (tools/capture/README.md): without a request to the mock 60 s
   * later, Enter again.
   */
  const submit = async (serve: LiveServe, text: string) => {
    const mark = mockLog.length;
    await serve.call("send", { target, text, enter: true, timeout: 30 }, 45000)
      .then((r) => log(`sent "${text}": ${JSON.stringify(r.receipt)}`))
      .catch((e) => log(`sent "${text}" without a receipt: ${(e as Error).message}`));
    const end = Math.min(deadline, Date.now() + 60000);
    if (await until(() => Promise.resolve(mockLog.length > mark), end)) return;
    log("no model request 60 s after Enter: Enter again");
    await serve.call("send", { target, text: "", enter: true, timeout: 60 }, 90000)
      .then((r) => log(`Enter again: ${JSON.stringify(r.receipt)}`))
      .catch((e) => log(`Enter again without a receipt: ${(e as Error).message}`));
  };
  {
    await using serve = await startServe(env, spec.cwd);
    const command = agentCommand(agent.id, spec, false);
    log(`${name} (${spec.version}): serve + ${spec.file} (mock ${mock.url})`);
    try {
      target = String((await serve.call("new", { command, cwd: spec.cwd, name: agent.id })).id);
      await startup(serve, target, agent, deadline, log);
      // The TUI's rounds before `option`, which may allow the command for good.
      const rounds = values.tui
        ? [...ROUNDS.slice(0, 3), ...TUI_ROUNDS, "option" as const]
        : ROUNDS;
      for (const [i, round] of rounds.entries()) {
        try {
          Deno.removeSync(`${spec.cwd}/${FILE}`);
        } catch { /* none yet */ }
        const mark = mockLog.length;
        const text = `LAB-TOOL: round ${i + 1} (${round})`;
        await submit(serve, text);
        const prompt = await blocked(serve, target, deadline, log);
        log(
          `blocked: ${JSON.stringify(prompt.question)} [${prompt.subject}] options ` +
            prompt.options.map((o, k) => `${k + 1}. ${o.label} (${o.keys.join(" ")})`).join(", ") +
            ` approve=${prompt.approve} deny=${prompt.deny} cancel=${prompt.cancel}`,
        );
        let runs = false;
        if (round === "tui" || round === "tui-changed") {
          tui ??= await tuiClient(env, spec.cwd);
          const opened = await tui.press("o", `Answer ${agent.id}`);
          check(`${round}: o opens the answer overlay`, opened);
          if (round === "tui") {
            runs = true;
            const ok = await tui.press("y", /✓ \S+: answered/);
            const said = /✓.*$/m.exec(tui.screen())?.[0] ?? "";
            check(`${round}: y approves, the receipt shows: ${said.trim()}`, ok);
          } else {
            await serve.call("send", { target, text: "\x1b" });
            await until(
              async () => !agent.blockedRe.test(await screen(serve, target)),
              Math.min(deadline, Date.now() + 10000),
            );
            const ok = await tui.press("y", /nothing typed/);
            const said =
              /(Cannot read what |The prompt of |session-\d+ \().*nothing typed/.exec(tui.screen())
                ?.[0] ?? "";
            check(`${round}: y on a prompt that left the screen is refused: ${said.trim()}`, ok);
            if (!ok) log(`client screen:\n${tui.screen()}`);
            tui.session.write("\x1b"); // close the overlay, if still open
          }
        } else if (round === "changed") {
          // The user answers in the agent's own terminal (Esc) between the
          // orchestrator reading the prompt and answering it.
          await serve.call("send", { target, text: "\x1b" });
          await until(
            async () => !agent.blockedRe.test(await screen(serve, target)),
            Math.min(deadline, Date.now() + 10000),
          );
          const r = await ctl("answer", target, "--approve", "--expect", prompt.subject ?? "");
          log(`ctl answer --approve (exit ${r.code}): ${r.err || r.out}`);
          check(
            `${round}: the answer to a prompt no longer on screen is refused, nothing typed`,
            r.code === 1 && /nothing typed/.test(r.err),
          );
        } else {
          const n = otherOption(prompt);
          const how = round === "option" ? ["--option", String(n)] : [`--${round}`];
          runs = round === "approve" || (round === "option" && n !== prompt.deny);
          const started = Date.now();
          const r = await ctl("answer", target, ...how, "--json");
          const reply = JSON.parse(r.out || "{}");
          const receipt = reply.result?.receipt;
          log(
            `ctl answer ${how.join(" ")} (exit ${r.code}, ${Date.now() - started} ms): ` +
              (r.err || JSON.stringify(reply.result ?? reply)),
          );
          check(
            `${round}: ctl answer ${how.join(" ")} chose ${reply.result?.option}. ` +
              `${reply.result?.label}; its receipt says the prompt left ` +
              `(${receipt?.ms} ms, now ${receipt?.state})`,
            r.code === 0 && receipt?.left === true,
          );
          // A follow-up the answer led to (opencode confirms "Allow always"): its first option.
          const next = receipt?.prompt as Prompt | null | undefined;
          if (next && runs) {
            const r2 = await ctl("answer", target, "--option", "1", "--json");
            const again = JSON.parse(r2.out || "{}").result;
            log(
              `follow-up ${JSON.stringify(next.question)}: ctl answer --option 1 (exit ${r2.code})`,
            );
            check(
              `${round}: the follow-up ${JSON.stringify(next.question)} answered with 1. ` +
                `${again?.label}, its receipt says it left`,
              r2.code === 0 && again?.receipt?.left === true,
            );
          }
        }
        await turnEnd(serve, target, agent, deadline, log);
        const ran = exists(`${spec.cwd}/${FILE}`);
        const result = mockLog.slice(mark).includes("final");
        check(
          `${round}: the tool ${runs ? "ran" : "did not run"} (${FILE} ` +
            `${ran ? "exists" : "absent"}; the mock ${result ? "received" : "received no"} ` +
            "tool result to answer)",
          runs ? ran && result : !ran,
        );
        if (!runs) {
          // Claude Code sends the refused call's result with the next user
          // text in one message, which the mock takes for a tool result
          // (tools/capture/mock/scripts.ts): a plain turn carries it first.
          await submit(serve, "Fine, go on");
          await turnEnd(serve, target, agent, deadline, log);
        }
      }
    } catch (error) {
      check(`no error (${(error as Error).message})`, false);
      log(`screen:\n${target ? await screen(serve, target).catch(() => "") : ""}`);
    } finally {
      if (tui) await tui[Symbol.asyncDispose]();
      if (target) await serve.call("kill", { target }, 10000).catch(() => {});
    }
  }
  await endLeftovers(home);
  Deno.removeSync(tmp, { recursive: true });
  const failed = checks.failed;
  console.log(
    `\n== ${name} (${spec.version}): ${checks.count - failed} passed, ${failed} failed ` +
      `in ${Math.round((Date.now() - t0) / 1000)} s`,
  );
  return failed === 0 ? 0 : 1;
}

type Agent = (typeof AGENTS)[string];

async function screen(serve: LiveServe, target: string): Promise<string> {
  return ((await serve.call("read", { target })).lines as string[]).join("\n");
}

async function listed(serve: LiveServe, target: string): Promise<Listed | undefined> {
  return ((await serve.call("list", {})).sessions as Listed[]).find((s) => s.id === target);
}

async function until(test: () => Promise<boolean>, end: number): Promise<boolean> {
  while (Date.now() < end) {
    if (await test()) return true;
    await sleep(250);
  }
  return false;
}

/** Trusts the folder when asked, until the CLI's input prompt shows. */
async function startup(
  serve: LiveServe,
  target: string,
  agent: Agent,
  deadline: number,
  log: (line: string) => void,
): Promise<void> {
  let trusted = false;
  const ok = await until(async () => {
    const s = await screen(serve, target);
    if (!trusted && agent.trustRe.test(s)) {
      trusted = true;
      log("the CLI asks to trust the folder: yes");
      for (const key of agent.trustKeys) {
        await serve.call("send", { target, text: key });
        await sleep(300);
      }
      return false;
    }
    return agent.idleRe.test(s) && !agent.busyRe?.test(s);
  }, Math.min(deadline, Date.now() + 300000));
  if (!ok) throw new Error("the CLI's input prompt never showed");
  log("the CLI is ready");
  await sleep(3000);
}

/** Waits until lazyshell reports the session blocked with a prompt it can read. */
async function blocked(
  serve: LiveServe,
  target: string,
  deadline: number,
  log: (line: string) => void,
): Promise<Prompt> {
  let prompt: Prompt | null = null;
  const ok = await until(async () => {
    const s = await listed(serve, target);
    if (s?.state === "blocked" && s.prompt) prompt = s.prompt;
    return prompt !== null;
  }, Math.min(deadline, Date.now() + 180000));
  if (!ok || !prompt) throw new Error("lazyshell never reported the session blocked with a prompt");
  log("lazyshell: blocked");
  return prompt;
}

/** Waits until the turn is over: not blocked, not busy on screen, idle or done. */
async function turnEnd(
  serve: LiveServe,
  target: string,
  agent: Agent,
  deadline: number,
  log: (line: string) => void,
): Promise<void> {
  let calm = 0;
  const ok = await until(async () => {
    const s = await listed(serve, target);
    const text = await screen(serve, target);
    const over = (s?.state === "idle" || s?.state === "done") && !agent.busyRe?.test(text) &&
      !agent.blockedRe.test(text);
    calm = over ? calm + 1 : 0;
    return calm >= 8; // 2 s without a change of mind (a tool result's request is on its way)
  }, Math.min(deadline, Date.now() + 120000));
  const s = await listed(serve, target);
  log(ok ? `turn over (${s?.state})` : `the turn did not end (${s?.state})`);
}

if (import.meta.main) Deno.exit(await main(Deno.args));
