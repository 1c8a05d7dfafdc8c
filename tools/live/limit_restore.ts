/**
 * `deno task live codex limit-restore [--lab DIR] [--hard-limit S]` (docs/limits.md, "Across
 * restarts"): a pending resume survives a `kill -9` of the server and `lazyshell restore`.
 * Against the capture mock on 127.0.0.1:
 *
 * 1. `lazyshell serve` with `agents.codex.resume_after_limit: auto`; Codex in a session hits
 *    the mock's usage limit (`LAB-FAIL-LIMIT`, resetting 90 s after the request);
 * 2. once lazyshell reads `error`/`limit` with its reset, holds the resume (`ctl limit`:
 *    waiting) and the conversation id, the server gets SIGKILL — before the reset;
 * 3. a new server; `lazyshell restore --all` starts Codex again on its conversation;
 * 4. after the reset, lazyshell types the continue text once into the restored session:
 *    PASS when the mock receives exactly one more main request (its text the continue text)
 *    within the run, and no other in the minute after it.
 *
 * Leftovers (Codex's app-server daemon) are ended by PID at the end.
 */

import { AGENTS } from "../capture/agents/mod.ts";
import { startMockServer } from "../capture/mock/server.ts";
import { sleep } from "../capture/driver_util.ts";
import {
  endLeftovers,
  liveEnv,
  type LiveServe,
  setupAgent,
  stampedLog,
  startServe,
  writeConfig,
} from "./serve.ts";
import { lazyshell } from "../abuse/server.ts";
import {
  type Call,
  plainCommand,
  submitted,
  typePrompt,
  until,
  waitConversation,
  waitScreen,
} from "./restore.ts";

const CONTINUE = "continue";

export async function runLimitRestore(agentId: string, lab: string, hardLimitS: number) {
  const agent = AGENTS[agentId];
  if (!agent || agentId !== "codex") {
    console.error("Usage: deno task live codex limit-restore");
    return 2;
  }
  const t0 = Date.now();
  const log = stampedLog(t0);
  const main: { t: number; text: string }[] = [];
  let last = "";
  await using mock = await startMockServer({
    onRequest: (r) => {
      if (typeof r.body === "object" && r.body !== null) last = JSON.stringify(r.body);
    },
    onEvent: (e) => {
      if (e.kind !== "main") return;
      if (e.type === "request") main.push({ t: Date.now(), text: last });
      if (e.type === "request" || e.type === "failed" || e.type === "turn_end") {
        log(`mock: ${e.type} ${e.note ?? ""}`);
      }
    },
  });
  const name = `live-${agent.id}-limit-restore`;
  const spec = await setupAgent(agent, lab, mock, "fail-limit", name);
  const home = spec.env.HOME!;
  const tmp = Deno.makeTempDirSync({ prefix: "lazyshell-live-limit-restore-" });
  Deno.mkdirSync(`${tmp}/run`, { mode: 0o700 });
  const notes = `${tmp}/notifications.txt`;
  writeConfig(
    home,
    [
      "control:",
      "  enabled: true",
      "notify:",
      `  fallback_command: "cat >> ${notes}"`,
      "  rate_limit_seconds: 0",
      "agents:",
      `  ${agent.id}:`,
      "    resume_after_limit: auto",
      `    continue: ${CONTINUE}`,
      "",
    ].join("\n"),
  );
  const command = plainCommand(agent.id, spec);
  const env = liveEnv(spec.env, `${tmp}/run`);
  let serve: LiveServe | null = null;
  let verdict = "FAIL";
  const deadline = setTimeout(() => {
    log("HARD LIMIT reached");
    if (serve) serve.child.kill("SIGKILL");
  }, hardLimitS * 1000);
  try {
    log(`${name} (${spec.version}): serve + ${command} (mock ${mock.url})`);
    serve = await startServe(env, spec.cwd);
    const s1 = serve;
    const call: Call = (verb, a) => s1.call(verb, a);
    const target = String((await call("new", { command, cwd: spec.cwd, name: agent.id })).id);
    await waitScreen(call, target, agent.idleRe, 300_000, "the agent's prompt", log);
    await typePrompt(call, target, "LAB-FAIL-LIMIT: please create the marker file lab-file.txt");
    await submitted(call, target, () => main.length > 0, log);
    const limitedAt = Date.now();
    // lazyshell reads the limit, and its resume waits for the reset.
    let resetsAt = "";
    await untilAsync(
      async () => {
        const e = await entry(call, target);
        const l = await call("limit", { target });
        if (e?.kind !== "limit" || l.phase !== "waiting") return false;
        resetsAt = String(e.resetsAt);
        return true;
      },
      30_000,
      "error/limit with a waiting resume",
    );
    log(`lazyshell: error/limit, resetsAt ${resetsAt}, resume waiting`);
    const conversation = await waitConversation(call, target, log);
    if (conversation) log(`conversation ${conversation.id} (${conversation.source})`);
    await sleep(2000); // the pending resume and the state file written
    const before = main.length;
    const left = Date.parse(resetsAt) - Date.now();
    log(`kill -9 the server, ${(left / 1000).toFixed(1)} s before the reset`);
    serve.child.kill("SIGKILL");
    const killedAt = Date.now();
    await serve.child.status;
    await sleep(1000);

    serve = await startServe(env, spec.cwd);
    const s2 = serve;
    const call2: Call = (verb, a) => s2.call(verb, a);
    const restored = await lazyshell(env, ["restore", "--all"], spec.cwd);
    log(`lazyshell restore --all: ${restored.stdout.trim()}`);
    const again = ((await call2("list", {})).sessions as { id: string; name: string }[])
      .find((s) => s.name === agent.id);
    if (!again) throw new Error("the session was not restored");
    log(
      `restored session: ctl limit ${JSON.stringify(await call2("limit", { target: again.id }))}`,
    );
    // What the new server shows of the restored session until the resumed request: the
    // restored agent may draw its limit again from its transcript (Codex does).
    const watching = watchRestored(call2, again.id, () => main.length > before, log);
    // Exactly one more main request: after the reset (plus lazyshell's margin).
    await until(() => main.length > before, 400_000, "the resumed request");
    await watching;
    const resumed = main[before]!;
    log(
      `the mock's next main request: ${((resumed.t - killedAt) / 1000).toFixed(1)} s after the ` +
        `kill, ${((resumed.t - limitedAt) / 1000).toFixed(1)} s after the limit, ` +
        `${((resumed.t - Date.parse(resetsAt)) / 1000).toFixed(1)} s after the reset read`,
    );
    const typed = lastUserText(resumed.text);
    log(`its last user text: ${JSON.stringify(typed)}`);
    await sleep(60_000);
    const after = main.length - before;
    log(`${after} main request(s) after the kill (want 1)`);
    log(
      `restored session now: ctl limit ${
        JSON.stringify(await call2("limit", { target: again.id }))
      }`,
    );
    verdict = after === 1 && typed.trim() === CONTINUE ? "PASS" : "FAIL";
  } catch (error) {
    log(`error: ${(error as Error).message}`);
  } finally {
    clearTimeout(deadline);
    if (serve) await serve[Symbol.asyncDispose]();
    await endLeftovers(home, log);
    let text = "";
    try {
      text = Deno.readTextFileSync(notes).trim();
    } catch { /* none sent */ }
    log(`notifications:\n${text || "(none)"}`);
    Deno.removeSync(tmp, { recursive: true });
  }
  console.log(`\n== ${name} (${spec.version}): ${verdict}`);
  return verdict === "PASS" ? 0 : 1;
}

/** Logs each change of the session's state and its resume (`ctl limit`) until `done()`. */
async function watchRestored(
  call: Call,
  target: string,
  done: () => boolean,
  log: (line: string) => void,
): Promise<void> {
  let last = "";
  while (!done()) {
    try {
      const e = await entry(call, target);
      const l = await call("limit", { target });
      const now = `state=${e?.state} kind=${e?.kind} resetsAt=${e?.resetsAt} ` +
        `resume=${l.phase}${l.reason ? ` (${l.reason})` : ""}`;
      if (now !== last) log(`restored session: ${(last = now)}`);
    } catch { /* the server is busy: next time */ }
    await sleep(500);
  }
}

async function entry(call: Call, target: string): Promise<Record<string, unknown> | undefined> {
  return ((await call("list", {})).sessions as Record<string, unknown>[])
    .find((s) => s.id === target);
}

async function untilAsync(test: () => Promise<boolean>, ms: number, what: string) {
  const end = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(300);
  }
}

/** The last user message's text of an OpenAI Responses request body (JSON). */
function lastUserText(body: string): string {
  try {
    const input = (JSON.parse(body) as { input?: unknown[] }).input ?? [];
    const users = input.filter((m) => (m as { role?: string }).role === "user");
    const content = (users.at(-1) as { content?: { text?: string }[] } | undefined)?.content ?? [];
    return content.map((c) => c.text ?? "").join("");
  } catch {
    return "";
  }
}
