/**
 * `deno task live-enter <agent> [--n N] [--load K] [--chars C] [--gap MS]
 * [--receipt] [--fresh] [--lab DIR] [--hard-limit S]` (tools/live/README.md, `live-enter`)
 *
 * Does `ctl send TARGET TEXT --enter` submit? A real agent CLI runs in
 * `lazyshell serve` against the capture mock on 127.0.0.1; once it is idle,
 * N prompts (a sentence or two, as an orchestrator sends) are sent, each with
 * one `send --enter --no-receipt` (with `--receipt`: the default receipt, which
 * may press Enter a second time). A prompt is submitted when a request to the
 * mock carries its marker within SUBMIT_MS; otherwise it failed: the screen is
 * printed, Enter is pressed alone to submit it, and the next prompt waits for
 * that turn to end (then lazyshell's state done or idle, then `--gap MS`,
 * default 1500). `--chars C` adds C characters to each prompt. `--load K` runs
 * K busy loops (`sh -c 'while :; do :; done'`) during the prompts, ended by PID
 * afterwards. Meanwhile FIONREAD on the agent's terminal (its slave side) tells
 * how long the text waited unread, and whether the Enter joined it unread.
 * `--fresh`: each prompt goes to a new session of the agent as soon as its idle
 * prompt shows (no warm-up; the busy loops run from the first start).
 */

import { parseArgs } from "node:util";
import { libc } from "../../src/session/libc.ts";
import { openFdTargets } from "../../src/platform/process_files.ts";
import { captureProcesses } from "../capture/procs.ts";
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

/** How long a submitted prompt may take to reach the mock (Codex under load: seconds). */
const SUBMIT_MS = 20_000;

interface Trial {
  readonly i: number;
  readonly ok: boolean;
  /** The longest the text waited unread in the PTY (the child's read delay), ms. */
  readonly textWait: number | null;
  /** The Enter was queued while text was still unread: both could come in one read. */
  readonly together: boolean;
  /** ms from the send's reply to the mock's request carrying the marker. */
  readonly ms: number | null;
  readonly receipt: unknown;
}

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      lab: { type: "string", default: Deno.env.get("LAB_DIR") ?? "/work/lab" },
      "hard-limit": { type: "string", default: "900" },
      n: { type: "string", default: "20" },
      load: { type: "string", default: "0" },
      receipt: { type: "boolean", default: false },
      chars: { type: "string", default: "0" },
      gap: { type: "string", default: "1500" },
      fresh: { type: "boolean", default: false },
    },
  });
  const fresh = values.fresh;
  const agent = positionals[0] ? AGENTS[positionals[0]] : undefined;
  if (!agent) {
    console.error(`Usage: deno task live-enter <${Object.keys(AGENTS).join("|")}> [--n N]`);
    return 2;
  }
  const n = Number(values.n);
  const loadCount = Number(values.load);
  const t0 = Date.now();
  const log = stampedLog(t0);
  const tmp = Deno.makeTempDirSync({ prefix: "lazyshell-live-enter-" });
  Deno.mkdirSync(`${tmp}/run`, { mode: 0o700 });
  const run = Math.random().toString(36).slice(2, 7);
  const seen = new Map<string, number>();
  let requests = 0;
  const turnEnds: number[] = [];
  await using mock = await startMockServer({
    onRequest(r) {
      requests++;
      const body = JSON.stringify(r.body);
      for (const m of body.matchAll(/ENTERTEST-(\w+)-(\d+)/g)) {
        const key = `${m[1]}-${m[2]}`;
        if (!seen.has(key)) seen.set(key, Date.now());
      }
    },
    onEvent(e) {
      if (e.type === "turn_end") turnEnds.push(Date.now());
    },
  });
  const name = `live-enter-${agent.id}`;
  const spec = await setupAgent(agent, values.lab, mock, "question", name);
  writeConfig(`${spec.env.HOME}`, "control:\n  enabled: true\n");
  const command = agentCommand(agent.id, spec, false);
  const env = liveEnv(spec.env, `${tmp}/run`);
  let serve: LiveServe | null = null;
  let target = "";
  const loops: Deno.ChildProcess[] = [];
  let slave: Slave = { path: null, fd: -1 };
  const trials: Trial[] = [];
  const hard = setTimeout(() => {
    log("HARD LIMIT reached");
    hardStop.abort();
  }, Number(values["hard-limit"]) * 1000);
  const hardStop = new AbortController();
  const screen = async () => ((await serve!.call("read", { target })).lines as string[]).join("\n");
  const until = async (test: (s: string) => boolean, ms: number): Promise<string | null> => {
    const end = Date.now() + ms;
    while (Date.now() < end && !hardStop.signal.aborted) {
      const s = await screen().catch(() => "");
      if (test(s)) return s;
      await sleep(200);
    }
    return null;
  };
  const idleNow = (s: string) => agent.idleRe.test(s) && !(agent.busyRe?.test(s) ?? false);
  /** Waits until `key` reached the mock; ms from `from`, or null. */
  const reached = async (key: string, from: number, ms: number): Promise<number | null> => {
    const end = Date.now() + ms;
    while (Date.now() < end && !hardStop.signal.aborted) {
      const at = seen.get(key);
      if (at !== undefined) return at - from;
      await sleep(50);
    }
    return null;
  };
  /** lazyshell's state of the session (`list`), as `ctl wait` would see it. */
  const state = async () =>
    ((await serve!.call("list", {})).sessions as { id: string; state: string | null }[])
      .find((x) => x.id === target)?.state ?? null;
  /**
   * After a submitted prompt: its turn ended, lazyshell says done or idle (what an
   * orchestrator's `ctl wait` waits for), then `--gap` ms more.
   */
  const settled = async (turnsBefore: number) => {
    const end = Date.now() + 60_000;
    while (turnEnds.length <= turnsBefore && Date.now() < end) await sleep(20);
    while (Date.now() < end && !["done", "idle"].includes((await state()) ?? "")) await sleep(20);
    await sleep(Number(values.gap));
  };
  const startLoops = () => {
    for (let k = 0; k < loadCount; k++) {
      loops.push(
        new Deno.Command("sh", { args: ["-c", "while :; do :; done"], stdin: "null" }).spawn(),
      );
    }
  };
  let started = 0;
  /** A new session of the agent, up to its idle prompt (a trust question answered). */
  const startAgent = async () => {
    if (target) await serve!.call("kill", { target }, 10_000);
    if (slave.fd >= 0) libc()!.close(slave.fd);
    const sessionName = `${agent.id}-${++started}`;
    target = String((await serve!.call("new", { command, cwd: spec.cwd, name: sessionName })).id);
    const first = await until((s) => idleNow(s) || (agent.trustRe?.test(s) ?? false), 300_000);
    if (first !== null && !idleNow(first) && agent.trustKeys) {
      log("trust question: answering");
      for (const k of agent.trustKeys) {
        await serve!.call("send", { target, text: k });
        await sleep(700);
      }
    }
    if ((await until(idleNow, 300_000)) === null) throw new Error("never idle");
    slave = openSlave(spec.env.HOME ?? "/nonexistent");
    log(`${target} idle; reads probed through the terminal ${slave.path ?? "(none found)"}`);
  };
  try {
    log(`${name}: ${spec.version}; serve + ${command} (mock ${mock.url})`);
    serve = await startServe(env, spec.cwd);
    if (fresh) startLoops();
    await startAgent();
    // Warm-up turn (Codex ignores Enter until its app-server is up): Enter until it is taken.
    const warm = `warm-up ENTERTEST-${run}-0 reply briefly`;
    const turns0 = turnEnds.length;
    if (!fresh) {
      await sleep(3000);
      await serve.call("send", { target, text: warm, enter: true, noReceipt: true });
      for (let k = 0; (await reached(`${run}-0`, Date.now(), 15_000)) === null; k++) {
        if (k >= 8) throw new Error("warm-up prompt never reached the mock");
        log("warm-up not submitted yet: Enter again");
        await serve.call("send", { target, text: "\r" });
      }
      await settled(turns0);
      log(`warm-up done; ${loadCount} busy loops`);
      startLoops();
    }
    for (let i = 1; i <= n && !hardStop.signal.aborted; i++) {
      if (fresh && i > 1) await startAgent();
      const key = `${run}-${i}`;
      const text = `Trial ${i} ENTERTEST-${key}: please answer in one short sentence. ` +
        `This line stands for what an orchestrating agent sends, a sentence or two of plain text.` +
        " More context follows.".repeat(Math.ceil(Number(values.chars) / 22)).slice(
          0,
          Number(values.chars),
        );
      const turnsBefore = turnEnds.length;
      const probe = probeReads(slave);
      const sentAt = Date.now();
      const r = await serve.call(
        "send",
        { target, text, enter: true, ...(values.receipt ? { timeout: 30 } : { noReceipt: true }) },
        60_000,
      ).catch((e) => ({ error: String(e) }));
      const from = Date.now();
      const enterAt = performance.now();
      const ms = await reached(key, from, SUBMIT_MS);
      const reads = await probe.stop(enterAt);
      const receipt = (r as { receipt?: unknown }).receipt ?? (r as { error?: string }).error;
      trials.push({ i, ok: ms !== null, ms, receipt, ...reads });
      log(
        `trial ${i}: ${ms !== null ? `submitted in ${ms} ms` : "NOT SUBMITTED"} (send took ${
          from - sentAt
        } ms; text unread for ${reads.textWait ?? "?"} ms${
          reads.together ? ", ENTER QUEUED BEHIND UNREAD TEXT" : ""
        }) receipt=${JSON.stringify(receipt)}`,
      );
      if (ms === null) {
        log(`screen:\n${await screen()}`);
        await serve.call("send", { target, text: "\r" });
        if ((await reached(key, Date.now(), SUBMIT_MS)) === null) {
          log("Enter alone did not submit it either: stopping");
          break;
        }
      }
      await settled(turnsBefore);
    }
  } catch (error) {
    log(`error: ${(error as Error).stack ?? error}`);
  } finally {
    clearTimeout(hard);
    if (slave.fd >= 0) libc()!.close(slave.fd);
    for (const l of loops) {
      try {
        Deno.kill(l.pid, "SIGKILL");
      } catch { /* gone */ }
      await l.status;
    }
    if (target && serve) await serve.call("kill", { target }, 10_000).catch(() => {});
    await serve?.[Symbol.asyncDispose]();
    await endLeftovers(spec.env.HOME ?? "/nonexistent", log);
    Deno.removeSync(tmp, { recursive: true });
  }
  const failed = trials.filter((t) => !t.ok).length;
  const times = trials.flatMap((t) => t.ms === null ? [] : [t.ms]).sort((a, b) => a - b);
  const waits = trials.flatMap((t) => t.textWait === null ? [] : [t.textWait]);
  const together = trials.filter((t) => t.together).length;
  const retried = trials.filter((t) => (t.receipt as { retried?: boolean })?.retried).length;
  console.log(
    `\n== ${name} (${spec.version}) load=${loadCount} receipt=${values.receipt}: ` +
      `${trials.length} sent, ${failed} not submitted by the first Enter` +
      (values.receipt ? `, ${retried} receipts pressed Enter twice` : "") +
      (times.length ? `; submit → mock ${times[0]}–${times.at(-1)} ms` : "") +
      `; mock requests ${requests}` +
      (waits.length
        ? `; text unread ${Math.min(...waits)}–${Math.max(...waits)} ms after its write, ` +
          `Enter queued behind unread text ${together} times`
        : ""),
  );
  return 0;
}

interface Slave {
  readonly path: string | null;
  readonly fd: number;
}

/** The agent's terminal (its slave side): the first a process in its HOME has open, for FIONREAD. */
function openSlave(home: string): Slave {
  // The newest: an ended session's processes may not be gone yet.
  let found: string | undefined;
  for (const p of captureProcesses(null, home).sort((a, b) => a.pid - b.pid)) {
    const path = openFdTargets(p.pid).find((t) => t.startsWith("/dev/pts/"));
    if (path) found = path;
  }
  if (found) return { path: found, fd: libc()?.openTerminal(found) ?? -1 };
  return { path: null, fd: -1 };
}

/**
 * Polls the bytes waiting unread on the agent's terminal every millisecond (as the
 * event loop allows): how long the text waited for the child's read, and whether
 * the Enter joined it in the queue (then one read could take both).
 */
function probeReads(slave: Slave) {
  let stopped = false;
  const samples: [number, number][] = [];
  const loop = (async () => {
    if (slave.fd < 0) return;
    let last = -1;
    while (!stopped) {
      const v = libc()!.unread(slave.fd);
      if (v !== last) samples.push([performance.now(), v]);
      last = v;
      await new Promise((r) => setTimeout(r, 1));
    }
  })();
  return {
    /** `enterAt`: when the send's reply came, just after its Enter was written. */
    async stop(enterAt: number): Promise<{ textWait: number | null; together: boolean }> {
      stopped = true;
      await loop;
      if (slave.fd < 0) return { textWait: null, together: false };
      let textWait = 0;
      let together = false;
      for (let k = 0; k < samples.length; k++) {
        const [t, v] = samples[k]!;
        const next = samples[k + 1]?.[0] ?? t;
        if (v > 1) textWait = Math.max(textWait, Math.round(next - t));
        // Text still unread when the Enter went in: one read could take both.
        if (v > 1 && t <= enterAt && (samples[k + 1]?.[0] ?? Infinity) > enterAt) together = true;
      }
      return { textWait, together };
    },
  };
}

if (import.meta.main) Deno.exit(await main(Deno.args));
