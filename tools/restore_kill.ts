/**
 * `deno run -A tools/restore_kill.ts [--trials 100]`: the state file
 * survives `kill -9` of the real server at random moments (docs/restore.md).
 *
 * Each trial starts `lazyshell serve` (control API on) in a fresh state
 * directory, creates sessions `s-1`, `s-2`, … through the control API as
 * fast as it answers — half of them print a spinner, so the server is busy
 * — while reading the state file every 20 ms, and sends SIGKILL to the
 * server at a random moment 0.3–5 s after the first session was created. Then the file
 * must parse whole and hold `s-1` … `s-k` with no gap, k at least the
 * largest count read before the kill (none lost that a completed write
 * held). Prints the verdict and how far the file lagged behind the
 * sessions at the kill (the coalescing window). Exit 1 on any failure.
 */

import { parseArgs } from "node:util";
import { request } from "../src/ctl/client.ts";
import { parseState } from "../src/restore/state_file.ts";
import { median } from "../bench/stats.ts";
import { controlSocket, spawnServe } from "./abuse/server.ts";
const { values } = parseArgs({ args: Deno.args, options: { trials: { type: "string" } } });
const TRIALS = Number(values.trials ?? "100");

interface Trial {
  readonly created: number;
  readonly seen: number;
  readonly kept: number | null;
  readonly problem: string | null;
}

async function trial(base: string, n: number): Promise<Trial> {
  const dir = `${base}/t${n}`;
  Deno.mkdirSync(`${dir}/config/lazyshell`, { recursive: true });
  Deno.mkdirSync(`${dir}/run`, { mode: 0o700 });
  Deno.writeTextFileSync(
    `${dir}/config/lazyshell/config.yml`,
    "shell: /bin/sh\ncontrol:\n  enabled: true\n",
  );
  const file = `${dir}/state/lazyshell/sessions-default.jsonl`;
  const serve = spawnServe({
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: dir,
    XDG_CONFIG_HOME: `${dir}/config`,
    XDG_DATA_HOME: `${dir}/data`,
    XDG_STATE_HOME: `${dir}/state`,
    XDG_RUNTIME_DIR: `${dir}/run`,
    DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
  }, { cwd: dir });
  const control = controlSocket(await serve.ready)!;
  let created = 0;
  let seen = 0;
  let stop = false;
  const reader = (async () => {
    while (!stop) {
      try {
        const parsed = parseState(Deno.readTextFileSync(file));
        if (parsed.problems.length === 0) seen = Math.max(seen, parsed.sessions.length);
      } catch { /* not written yet */ }
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const creator = (async () => {
    while (!stop) {
      const name = `s-${created + 1}`;
      const command = created % 2 === 0
        ? "exec cat"
        : "while :; do printf '\\r|/-\\\\' ; sleep 0.1; done";
      try {
        const { response } = await request(control, "new", { name, command }, 5000);
        // A `new` whose reply timed out under load may have created the session all the same.
        if (response.ok || response.error === `A session is already named ${name}`) created++;
      } catch {
        // Killed: a refused connect fails at once, so wait before trying again (or stopping).
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  })();
  // The random moment counts from the first session created: at load 20 on 2 cores the first
  // `new` alone took seconds, and a kill before any session tested nothing (21 of 100 trials).
  const first = Date.now() + 60_000;
  while (created === 0 && Date.now() < first) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 300 + Math.random() * 4700));
  const atKill = created;
  stop = true;
  serve.child.kill("SIGKILL");
  await serve.child.status;
  // A request in flight ends with its connection; stderr ends with the last process holding it.
  await Promise.race([
    Promise.all([reader, creator, serve.ended]),
    new Promise((r) => setTimeout(r, 10_000)),
  ]);
  let kept: number | null = null;
  let problem: string | null = null;
  try {
    const parsed = parseState(Deno.readTextFileSync(file));
    const names = parsed.sessions.map((s) => s.name);
    kept = names.length;
    if (parsed.problems.length > 0) problem = parsed.problems.join("; ");
    else if (names.some((name, i) => name !== `s-${i + 1}`)) problem = `a gap: ${names.join(" ")}`;
    else if (kept < seen) problem = `${kept} sessions, ${seen} read before the kill`;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) problem = String(error);
    else if (seen > 0) problem = "the file is gone";
  }
  Deno.removeSync(dir, { recursive: true });
  return { created: atKill, seen, kept, problem };
}

const base = Deno.makeTempDirSync({ prefix: "lzs-restore-kill-" });
const results: Trial[] = [];
try {
  for (let n = 0; n < TRIALS; n++) {
    const r = await trial(base, n);
    results.push(r);
    const line = `trial ${n + 1}: ${r.created} created, ${r.seen} read before the kill, ` +
      `${r.kept === null ? "no file yet" : `${r.kept} in the file`}${
        r.problem ? ` — FAIL: ${r.problem}` : ""
      }`;
    console.log(line);
  }
} finally {
  Deno.removeSync(base, { recursive: true });
}
const failed = results.filter((r) => r.problem !== null);
const withFile = results.filter((r) => r.kept !== null);
const lag = withFile.map((r) => r.created - r.kept!);
console.log(
  `\n${results.length} kill -9 trials of lazyshell serve under load: ` +
    `${withFile.length - failed.length} files parsed whole, ` +
    `${results.length - withFile.length} before any write, ${failed.length} failed; ` +
    `sessions per file median ${median(withFile.map((r) => r.kept!))}; ` +
    `created but not yet in the file at the kill: median ${median(lag)}, max ${Math.max(...lag)}`,
);
Deno.exit(failed.length === 0 ? 0 : 1);
