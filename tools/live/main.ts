/**
 * `deno task live <agent> [scenario] [--hooks] [--lab DIR] [--hard-limit S]`
 *
 * The product's promise checked end to end: a real agent CLI runs INSIDE
 * `lazyshell serve` (control API on, config.yml in the CLI's isolated HOME), against
 * the capture mock on 127.0.0.1, driven through `ctl new` / `send` / `read`
 * like an orchestrator would, with the capture tool's scenarios. lazyshell's
 * view is polled with `list` (state, kind, source, ruleId, seq) and printed
 * against what the screen showed; the verdict gives the latency from the
 * prompt on screen to `blocked`, misses and false blocked episodes.
 *
 * Keys are sent with `ctl send` (scripted input, not typed by a user): the
 * user-interrupt rule does not see them; the TUI check does that by hand.
 * With `--answer approve|deny|option:N` the scenario's answer to a prompt
 * (approve, deny, pick an option) goes through `ctl answer` instead, and its
 * receipt (or refusal) is printed. With `--send-receipt` the scenario's prompt
 * is typed by one `ctl send TEXT --enter` (not key by key) and its receipt printed.
 * Leftovers (Codex's app-server daemon) are ended by PID (liveness via /proc).
 */

import { parseArgs } from "node:util";
import { AGENTS } from "../capture/agents/mod.ts";
import type { ScenarioName } from "../capture/profile.ts";
import { type Player, SCENARIO_BODIES } from "../capture/scenarios.ts";
import { startMockServer } from "../capture/mock/server.ts";
import { sleep } from "../capture/driver_util.ts";
import { type Expected, judge, type Observed, render } from "./timeline.ts";
import { limitResumeBody, limitScenario } from "./limit_resume.ts";
import { lazyshell } from "../abuse/server.ts";
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

interface Entry {
  id: string;
  state: string | null;
  kind: string | null;
  source: string | null;
  ruleId: string | null;
  seq: number | null;
  status: string;
}

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      hooks: { type: "boolean", default: false },
      lab: { type: "string", default: Deno.env.get("LAB_DIR") ?? "/work/lab" },
      "hard-limit": { type: "string", default: "240" },
      out: { type: "string" },
      answer: { type: "string" },
      "send-receipt": { type: "boolean", default: false },
      typed: { type: "boolean", default: false },
    },
  });
  const [agentId, scenarioArg = "tool"] = positionals;
  if (scenarioArg === "limit-restore") {
    const { runLimitRestore } = await import("./limit_restore.ts");
    return await runLimitRestore(agentId ?? "", values.lab, Number(values["hard-limit"]));
  }
  if (scenarioArg === "restore") {
    const { runRestore } = await import("./restore.ts");
    return await runRestore(agentId ?? "", values.lab, Number(values["hard-limit"]), {
      hooks: values.hooks,
      typed: values.typed,
    });
  }
  const agent = agentId ? AGENTS[agentId] : undefined;
  if (!agent) {
    console.error(`Usage: deno task live <${Object.keys(AGENTS).join("|")}> [scenario] [--hooks]`);
    return 2;
  }
  // `limit-resume` (limit_resume.ts): the agent hits a usage limit with
  // `resume_after_limit: auto`; the mock must receive exactly one more main request.
  const limitResume = scenarioArg === "limit-resume";
  const scenario = (limitResume ? limitScenario(agent.scenarios) : scenarioArg) as ScenarioName;
  if (!SCENARIO_BODIES[scenario]) {
    console.error(`Unknown scenario: ${scenarioArg}`);
    return 2;
  }
  const lab = values.lab;
  const name = `live-${agent.id}-${limitResume ? "limit-resume" : scenario}${
    values.hooks ? "-hooks" : ""
  }`;
  const tmp = Deno.makeTempDirSync({ prefix: "lazyshell-live-" });
  const notifyLog = `${tmp}/notifications.txt`;
  Deno.mkdirSync(`${tmp}/run`, { mode: 0o700 });
  const t0 = Date.now();
  const now = () => Date.now() - t0;
  const expected: Expected[] = [];
  const observed: Observed[] = [];
  const log = stampedLog(t0);
  const stop = new AbortController();
  let turnsEnded = 0;
  const mockListeners = new Set<(type: string) => void>();
  let onTurnEnd = () => {};

  await using mock = await startMockServer({
    onEvent(e) {
      if (e.kind === "aux" || e.type === "unhandled" || e.type === "error") return;
      if (e.type === "stream_start") log(`mock: streaming (${e.script})`);
      if (e.type === "turn_end") {
        log("mock: turn end");
        onTurnEnd();
      }
      mockListeners.forEach((l) => l(e.type));
    },
  });
  const spec = await setupAgent(agent, lab, mock, scenario, name);
  writeConfig(
    `${spec.env.HOME}`,
    [
      "control:",
      "  enabled: true",
      "notify:",
      `  fallback_command: "cat >> ${notifyLog}"`,
      "  rate_limit_seconds: 0",
      "agents:",
      "  claude:",
      `    inject_hooks: ${values.hooks}`,
      ...(limitResume && agent.id === "claude" ? ["    resume_after_limit: auto"] : []),
      ...(limitResume && agent.id !== "claude"
        ? [`  ${agent.id}:`, "    resume_after_limit: auto"]
        : []),
      "",
    ].join("\n"),
  );

  const command = agentCommand(agent.id, spec, values.hooks);
  const env = liveEnv(spec.env, `${tmp}/run`);
  log(`${name}: serve + ${command} (mock ${mock.url})`);
  let serve: LiveServe | null = null;
  let target = "";
  let screen = "";
  let exitCode = 1;
  const call = (verb: string, a: Record<string, unknown>, ms = 15000) => {
    if (!serve) throw new Error("serve is not running");
    return serve.call(verb, a, ms);
  };
  const label = (state: string, note: string, source: string, t = now()) => {
    expected.push({ t, state, note, source });
    log(`expect ${state} (${source}): ${note}`);
  };

  const pollers: Promise<void>[] = [];
  try {
    serve = await startServe(env, spec.cwd);
    const entry = await call("new", { command, cwd: spec.cwd, name: agent.id });
    target = String(entry.id);
    label("starting", "session created", "driver");
    let last = "";
    // lazyshell's view: list every 150 ms.
    pollers.push((async () => {
      while (!stop.signal.aborted) {
        try {
          const r = await call("list", {});
          const s = (r.sessions as Entry[]).find((x) => x.id === target);
          const key = s ? `${s.state}|${s.kind}|${s.source}|${s.ruleId}|${s.seq}` : "";
          if (s && key !== last) {
            last = key;
            observed.push({
              t: now(),
              state: s.state,
              kind: s.kind,
              source: s.source,
              ruleId: s.ruleId,
              seq: s.seq,
            });
            log(`   lazyshell: ${s.state} kind=${s.kind} source=${s.source} rule=${s.ruleId}`);
          }
        } catch { /* exiting */ }
        await sleep(150, stop.signal);
      }
    })());
    const screenWaiters = new Set<() => void>();
    pollers.push((async () => {
      while (!stop.signal.aborted) {
        try {
          const r = await call("read", { target });
          screen = (r.lines as string[]).join("\n");
          screenWaiters.forEach((w) => w());
        } catch { /* exiting */ }
        await sleep(150, stop.signal);
      }
    })());
    const waitFor = (test: () => boolean, ms: number): Promise<number | null> => {
      if (test()) return Promise.resolve(now());
      return new Promise((resolve) => {
        const done = (v: number | null) => {
          clearTimeout(timer);
          screenWaiters.delete(w);
          stop.signal.removeEventListener("abort", abort);
          resolve(v);
        };
        const w = () => test() && done(now());
        const abort = () => done(null);
        const timer = setTimeout(abort, ms);
        stop.signal.addEventListener("abort", abort, { once: true });
        screenWaiters.add(w);
      });
    };
    const busy = () => agent.busyRe?.test(screen) ?? false;
    const waitMock = (type: string, ms: number) =>
      new Promise<boolean>((resolve) => {
        const l = (t: string) => t === type && done(true);
        const done = (ok: boolean) => {
          clearTimeout(timer);
          mockListeners.delete(l);
          resolve(ok);
        };
        const timer = setTimeout(() => done(false), ms);
        mockListeners.add(l);
      });
    const turnWaiters = new Set<() => void>();
    /** The scenario labels turn ends itself (Player.ownTurnEnds: subagents). */
    let ownTurnEnds = false;
    const turnEnd = async () => {
      const t = ownTurnEnds ? null : await waitFor(() => !busy(), 30000);
      if (!ownTurnEnds) {
        label("done", "model finished; working indicator gone", "screen", t ?? now());
      }
      turnsEnded++;
      turnWaiters.forEach((w) => w());
    };
    onTurnEnd = () => void turnEnd();
    const send = (text: string) => call("send", { target, text }).catch((e) => log(String(e)));
    let answered = false;
    /** `ctl answer` in place of the scenario's key (once per run). */
    const answer = async (how: string, note: string) => {
      if (answered) return;
      answered = true;
      const n = /^option:(\d+)$/.exec(how)?.[1];
      const choice = n ? { option: Number(n) } : { [how]: true };
      const listed = await call("list", {});
      const prompt = (listed.sessions as { id: string; prompt: unknown }[])
        .find((x) => x.id === target)?.prompt;
      log(
        `ctl answer ${JSON.stringify(choice)} (scenario: ${note}); prompt ${
          JSON.stringify(prompt)
        }`,
      );
      try {
        const r = await call("answer", { target, ...choice }, 30000);
        log(`ANSWERED ${JSON.stringify(r)}`);
        await sleep(1500, stop.signal);
        log(`screen 1.5 s after the answer:\n${screen}`);
      } catch (e) {
        log(`REFUSED ${e}`);
      }
    };

    const player: Player = {
      agent,
      focusOut: false,
      wait: (ms) => sleep(ms, stop.signal),
      async waitScreen(re, ms, what) {
        const t = await waitFor(() => re.test(screen), ms);
        if (t === null) log(`(timeout waiting for ${what})`);
        return t === null ? null : { t_ms: t, off: 0 };
      },
      async waitState(test, ms, what) {
        // `ctl read` gives the screen, not the title: the title test sees "".
        const t = await waitFor(() => test(screen, ""), ms);
        if (t === null) log(`(timeout waiting for ${what})`);
        return t === null ? null : { t_ms: t, off: 0 };
      },
      waitMock: (type, ms) => waitMock(type, ms),
      waitTurnEnd: (ms) =>
        new Promise((resolve) => {
          const w = () => done(true);
          const done = (ok: boolean) => {
            clearTimeout(timer);
            turnWaiters.delete(w);
            resolve(ok);
          };
          const timer = setTimeout(() => done(false), ms);
          turnWaiters.add(w);
        }),
      turnsEnded: () => turnsEnded,
      // A live session keeps the size of the pane it is shown in: resizes are not played here.
      resize: (cols, rows) => log(`(resize to ${cols}x${rows} not played live)`),
      ownTurnEnds: () => void (ownTurnEnds = true),
      async prompt(text) {
        if (values["send-receipt"]) {
          const at = now();
          const shown = waitFor(busy, 80000);
          try {
            const r = await call("send", { target, text, enter: true, timeout: 30 }, 60000);
            log(`SENT ${JSON.stringify(r)}`);
            await sleep(3000, stop.signal);
            log(`screen 3 s later:\n${screen}`);
          } catch (e) {
            log(`NOT TAKEN ${e}; screen now:\n${screen}`);
            // Codex takes no input until its app-server is up (tools/capture/README.md): later,
            // Enter alone, with a receipt again.
            await sleep(45000, stop.signal);
            try {
              const r = await call("send", { target, text: "", enter: true, timeout: 60 }, 90000);
              log(`SENT (Enter again) ${JSON.stringify(r)}`);
            } catch (e2) {
              log(`NOT TAKEN (Enter again) ${e2}; screen now:\n${screen}`);
            }
          }
          const seen = await shown;
          label("working", `submitted: ${text}`, seen ? "screen" : "driver", seen ?? at);
          return;
        }
        for (const ch of text) {
          await send(ch);
          await sleep(35, stop.signal);
        }
        await sleep(700, stop.signal);
        const at = now();
        await send("\r");
        const shown = waitFor(busy, 80000);
        if (!(await waitMock("request", 60000))) {
          log("no model request 60 s after Enter: pressing Enter again");
          await send("\r");
        }
        const seen = await shown;
        label("working", `submitted: ${text}`, seen ? "screen" : "driver", seen ?? at);
      },
      key(data, note) {
        if (values.answer && /^(approve|Esc \(deny|Enter 1 \(pick)/.test(note)) {
          void answer(values.answer, note);
          return;
        }
        log(`key ${JSON.stringify(data)}: ${note}`);
        // Answers to a prompt go the orchestrator's safe way: only while lazyshell says blocked.
        if (/^(approve|Esc \(deny)/.test(note)) {
          void call("send", { target, text: data, ifState: "blocked" }).catch((e) =>
            log(`REFUSED ${e}`)
          );
        } else void send(data);
      },
      async labelOnScreen(state, note, test, ms = 20000) {
        const at = now();
        const t = await waitFor(() => test(screen, ""), ms);
        label(state, note, t === null ? "driver" : "screen", t ?? at);
      },
      label: (state, note, source, at) => label(state, note, source, at?.t_ms ?? now()),
      note: (text) => log(`note: ${text}`),
      procs: () => {},
      screenText: () => screen,
    };
    const hard = Number(values["hard-limit"]) * 1000;
    const body = limitResume
      ? limitResumeBody({
        scenario,
        body: SCENARIO_BODIES[scenario],
        onMock: (l) => mockListeners.add(l),
        waitMock,
        log,
        label: (state, note, source) => label(state, note, source),
        entry: async () =>
          ((await call("list", {})).sessions as Record<string, unknown>[])
            .find((x) => x.id === target) ?? null,
        limit: () => call("limit", { target }),
        ls: async () => (await lazyshell(env, ["ls"], spec.cwd)).stdout.trim(),
        sleep: (ms) => sleep(ms, stop.signal),
        now,
      })
      : SCENARIO_BODIES[scenario];
    const outcome = await Promise.race([
      body(player).then(() => "ok" as const),
      sleep(hard, stop.signal).then(() => "hard-limit" as const),
    ]);
    if (outcome === "hard-limit") log("HARD LIMIT reached");
    exitCode = 0;
  } catch (error) {
    log(`error: ${(error as Error).stack ?? error}`);
  } finally {
    stop.abort();
    await Promise.allSettled(pollers);
    if (target) {
      try {
        await call("kill", { target }, 10000);
      } catch (error) {
        log(`kill: ${error}`);
      }
    }
    await serve?.[Symbol.asyncDispose]();
    await endLeftovers(spec.env.HOME ?? "/nonexistent", log);
  }
  let notes = "";
  try {
    notes = Deno.readTextFileSync(notifyLog);
  } catch { /* none sent */ }
  const verdict = judge(expected, observed);
  const report = [
    `== ${name} (${spec.version})`,
    render(expected, observed, verdict),
    "notifications (fallback_command):",
    notes.trim() || "(none)",
  ].join("\n");
  console.log("\n" + report);
  if (values.out) Deno.writeTextFileSync(`${values.out}/${name}.txt`, report + "\n");
  const serveErr = (serve?.stderr ?? []).filter((l) => !/ready|ending every session/.test(l));
  if (serveErr.length) console.log("serve stderr:\n" + serveErr.join("\n"));
  Deno.removeSync(tmp, { recursive: true });
  return exitCode;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
