/**
 * Light commands against a bare `deno run` (docs/architecture.md, Start-up;
 * target ≤ 1.5×), each measured in the same rounds as its floor:
 *
 * - `lazyshell ls`, `ctl list` (in a session: $LAZYSHELL_CONTROL), `hook
 *   working`, each a subprocess: CPU time (`perf stat`'s task-clock, else
 *   bash's `times`) and wall time (bash's EPOCHREALTIME around the command), against `deno
 *   run` of an empty file outside the checkout (no deno.json: the floor);
 *   the same with the checkout's deno.json is printed beside it (reading
 *   the config and the lock file costs ~1 ms of CPU);
 * - `lazyshell attach` started in a PTY → the first byte on the terminal,
 *   against `deno run` of a file (outside the checkout) that writes one
 *   byte, in the same PTY.
 *
 * One server (this checkout's, or BENCH_MAIN's) with one session; BENCH_B
 * names other checkouts' main.ts (comma-separated) whose clients run in the
 * same rounds: a before/after. BENCH_RUNS rounds (default 20), after 3
 * unmeasured. Prints per command the medians, the ratio of the medians and
 * the median of the per-round ratios.
 */

import { startServe } from "../tools/abuse/server.ts";
import { SessionStore } from "../src/session/store.ts";
import { MAIN } from "./tui_harness.ts";
import { median } from "./stats.ts";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? "20");
const WARMUP = 3;
const CONFIG = new URL("../deno.json", import.meta.url).pathname;
const OTHERS = (Deno.env.get("BENCH_B") ?? "").split(",").filter(Boolean);
const load = () => Deno.loadavg().map((n) => n.toFixed(1)).join(" ");

await using server = await startServe({
  args: ["--project", "project.yml"],
  files: {
    "project.yml":
      `sessions:\n  - name: s1\n    command: "echo $LAZYSHELL_SOCK > sock; exec cat"\n`,
  },
  main: MAIN,
});
const sockFile = `${server.base}/sock`;
for (let i = 0; i < 300 && !exists(sockFile); i++) await pause(50);
const hookSock = Deno.readTextFileSync(sockFile).trim();
const empty = `${server.base}/empty.ts`;
Deno.writeTextFileSync(empty, "");
const oneByte = `${server.base}/one_byte.ts`;
Deno.writeTextFileSync(oneByte, "Deno.stdout.writeSync(new Uint8Array([0x2e]));\n");

interface Sample {
  cpu: number;
  wall: number;
}

/**
 * `perf stat`'s task-clock (µs: every thread's CPU time) when perf runs here; else bash's `times`
 * (user + system of the children, whole ms only: medians come out in steps of 0.5 ms).
 */
const PERF = await new Deno.Command("perf", { args: ["stat", "-x,", "-e", "task-clock", "true"] })
  .output().then((o) => o.success, () => false);

/** CPU (ms) and wall time (ms, bash's EPOCHREALTIME around the command, perf's start too) of a run. */
async function measure(argv: string[], env: Record<string, string>): Promise<Sample> {
  const stat = `${server.base}/perf-stat`;
  const run = PERF ? `perf stat -x, -e task-clock -o ${stat} -- "$@"` : '"$@"';
  const script = `s=$EPOCHREALTIME; ${run} >/dev/null 2>&1; e=$EPOCHREALTIME; times; echo "$s $e"`;
  const out = await new Deno.Command("bash", {
    args: ["-c", script, "bash", ...argv],
    env,
    clearEnv: true,
    cwd: server.base,
    stdout: "piped",
  }).output();
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
  const seconds = (t: string) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(t)!;
    return Number(m[1]) * 60 + Number(m[2]);
  };
  const [user, system] = lines[1]!.split(" ");
  const [s, e] = lines[2]!.split(" ").map(Number);
  const cpu = PERF
    ? Number(/^([\d.]+),msec,task-clock/m.exec(Deno.readTextFileSync(stat))![1])
    : (seconds(user!) + seconds(system!)) * 1000;
  return { cpu, wall: (e! - s!) * 1000 };
}

const store = new SessionStore({
  shell: "/bin/sh",
  env: server.env,
  cols: 120,
  rows: 32,
  cwd: server.base,
});

/** Started in a PTY → the first byte on the terminal (ms); the process is then ended. */
async function firstByte(argv: string[]): Promise<number> {
  const t0 = performance.now();
  const s = store.create({ command: `exec ${argv.join(" ")}` });
  const first = Promise.withResolvers<number>();
  using _tap = s.tap(() => first.resolve(performance.now() - t0));
  const ms = await Promise.race([first.promise, s.exited.then(() => NaN)]);
  s.kill("SIGKILL");
  await s.exited;
  return ms;
}

const deno = [Deno.execPath(), "run", "-A", "--quiet"];
const env = { ...server.env, LAZYSHELL_CONTROL: server.socket, LAZYSHELL_SOCK: hookSock };
const mains = [
  { label: "", main: MAIN },
  ...OTHERS.map((m, i) => ({ label: ` [B${i + 1}]`, main: m })),
];

interface Row {
  readonly name: string;
  readonly run: () => Promise<Sample>;
}
const rows: Row[] = [
  { name: "deno run (empty file: the floor)", run: () => measure([...deno, empty], env) },
  {
    name: "deno run (empty file, the checkout's deno.json)",
    run: () => measure([...deno, "--config", CONFIG, empty], env),
  },
];
for (const { label, main } of mains) {
  rows.push(
    { name: `ls${label}`, run: () => measure([...deno, main, "ls"], env) },
    { name: `ctl list${label}`, run: () => measure([...deno, main, "ctl", "list"], env) },
    { name: `hook working${label}`, run: () => measure([...deno, main, "hook", "working"], env) },
  );
}
const ptyRows: { name: string; run: () => Promise<number> }[] = [
  { name: "deno run writing one byte (the floor)", run: () => firstByte([...deno, oneByte]) },
  ...mains.map(({ label, main }) => ({
    name: `attach → first byte${label}`,
    run: () => firstByte([...deno, main, "attach"]),
  })),
];

const samples = rows.map(() => [] as Sample[]);
const ptySamples = ptyRows.map(() => [] as number[]);
console.log(
  `light commands, ${RUNS} rounds, CPU from ${
    PERF ? "perf stat" : "bash's times"
  } (load ${load()})`,
);
for (let round = 0; round < WARMUP + RUNS; round++) {
  for (const [i, row] of rows.entries()) {
    const s = await row.run();
    if (round >= WARMUP) samples[i]!.push(s);
  }
  for (const [i, row] of ptyRows.entries()) {
    const ms = await row.run();
    if (round >= WARMUP) ptySamples[i]!.push(ms);
  }
}
const fmt = (n: number) => n.toFixed(1);
/** Median of the per-round ratios of `xs` to the floor's `ys`. */
const roundRatio = (xs: number[], ys: number[]) => median(xs.map((x, i) => x / ys[i]!));
const floor = samples[0]!;
for (const [i, row] of rows.entries()) {
  const cpu = samples[i]!.map((s) => s.cpu);
  const wall = samples[i]!.map((s) => s.wall);
  const fc = floor.map((s) => s.cpu);
  const fw = floor.map((s) => s.wall);
  const ratios = i === 0
    ? ""
    : ` → CPU ${(median(cpu) / median(fc)).toFixed(2)}× (rounds ${
      roundRatio(cpu, fc).toFixed(2)
    }×), wall ${(median(wall) / median(fw)).toFixed(2)}× (rounds ${
      roundRatio(wall, fw).toFixed(2)
    }×)`;
  console.log(
    `${row.name}: CPU p50 ${fmt(median(cpu))} ms, wall p50 ${fmt(median(wall))} ms${ratios}`,
  );
}
const ptyFloor = ptySamples[0]!;
for (const [i, row] of ptyRows.entries()) {
  const xs = ptySamples[i]!;
  const ratio = i === 0
    ? ""
    : ` → ${(median(xs) / median(ptyFloor)).toFixed(2)}× (rounds ${
      roundRatio(xs, ptyFloor).toFixed(2)
    }×)`;
  console.log(`${row.name}: p50 ${fmt(median(xs))} ms${ratio}`);
}
console.log(`load ${load()}`);
await store[Symbol.asyncDispose]();

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
