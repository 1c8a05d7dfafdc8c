/**
 * Throughput: the same workloads through a lazyshell session and through a
 * detached tmux pane of the same size, in one run (docs/architecture.md "The emulator").
 *
 * lazyshell is timed from spawn until every byte is parsed by its emulator
 * (the stricter measure); tmux is timed around the command inside its pane,
 * after which its server has read all but its PTY buffer.
 *
 * 1. The 50 MB corpora (bench/corpus.ts) through `cat`, best of
 *    BENCH_ROUNDS (default 2): MB/s each and the ratio lazyshell ÷ tmux
 *    (≥ 1.0: lazyshell is as fast or faster).
 * 2. Synchronized full-screen frames (docs/architecture.md, "Floods"),
 *    BENCH_RUNS runs (default 5), alternating, each run's time ratio
 *    lazyshell ÷ tmux (≤ 1.0: as fast or faster) and the worst run — a
 *    stall shows in one run of five, a best-of hides it:
 *    - `cat` of BENCH_MB of 200×60 frames (the fullframe corpus);
 *    - a program drawing BENCH_FRAMES 120×40 frames, 1 ms apart
 *      (bench/frame_writer.ts), in a 120×40 pane.
 *
 * BENCH_ONLY=frames runs part 2 alone.
 */

import { SessionStore } from "../src/session/store.ts";
import { WORKLOADS, writeCorpus } from "./corpus.ts";

const SIZE = Number(Deno.env.get("BENCH_MB") ?? "50") * 1024 * 1024;
const COLS = 200;
const ROWS = 60;
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? "2");
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? "5");
const FRAMES = Number(Deno.env.get("BENCH_FRAMES") ?? "2000");
const ONLY = Deno.env.get("BENCH_ONLY");
const WRITER = new URL("./frame_writer.ts", import.meta.url).pathname;

interface Pane {
  readonly cols: number;
  readonly rows: number;
}
const WIDE: Pane = { cols: COLS, rows: ROWS };

async function hasTmux(): Promise<boolean> {
  try {
    return (await new Deno.Command("tmux", { args: ["-V"], stdout: "null" }).output()).success;
  } catch {
    return false;
  }
}

async function lazyshellSeconds(command: string, pane: Pane = WIDE): Promise<number> {
  await using store = new SessionStore({ shell: "/bin/sh", ...pane, scrollback: 5000 });
  const start = performance.now();
  const session = store.create({ command });
  await session.exited;
  return (performance.now() - start) / 1000;
}

async function tmuxSeconds(command: string, dir: string, pane: Pane = WIDE): Promise<number> {
  const socket = `lazyshell-bench-${Deno.pid}`;
  const out = `${dir}/tmux-time`;
  await Deno.remove(out).catch(() => {});
  const script = `s=$(date +%s%N); ${command}; e=$(date +%s%N); echo $((e - s)) > ${out}.tmp; ` +
    `mv ${out}.tmp ${out}; sleep 30`;
  const tmux = (...args: string[]) =>
    new Deno.Command("tmux", { args: ["-L", socket, "-f", "/dev/null", ...args] }).output();
  await tmux(
    "new-session",
    "-d",
    "-x",
    String(pane.cols),
    "-y",
    String(pane.rows),
    "sh",
    "-c",
    script,
  );
  try {
    for (let i = 0; i < 12000; i++) {
      try {
        return Number(await Deno.readTextFile(out)) / 1e9;
      } catch {
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    throw new Error("tmux run did not finish in 120 s");
  } finally {
    await tmux("kill-server");
  }
}

async function corpora(dir: string, tmux: boolean): Promise<void> {
  const mb = SIZE / 1024 / 1024;
  console.log(`throughput: ${mb} MB per workload, ${COLS}x${ROWS}, best of ${ROUNDS} rounds`);
  console.log("workload   lazyshell MB/s   tmux MB/s   ratio (lazyshell/tmux)");
  for (const workload of WORKLOADS) {
    const file = `${dir}/${workload}.txt`;
    await writeCorpus(file, workload, SIZE);
    const bytes = (await Deno.stat(file)).size / 1024 / 1024;
    let ours = Infinity;
    let theirs = Infinity;
    for (let round = 0; round < ROUNDS; round++) {
      ours = Math.min(ours, await lazyshellSeconds(`cat ${file}`));
      if (tmux) theirs = Math.min(theirs, await tmuxSeconds(`cat ${file}`, dir));
    }
    const oursRate = bytes / ours;
    const theirRate = tmux ? bytes / theirs : NaN;
    console.log(
      `${workload.padEnd(10)} ${oursRate.toFixed(1).padStart(14)} ${
        (tmux ? theirRate.toFixed(1) : "n/a").padStart(11)
      }   ${tmux ? (oursRate / theirRate).toFixed(2) : "tmux not installed"}`,
    );
    await Deno.remove(file);
  }
}

/** Each run's time ratio against tmux, and the worst run. */
async function runs(name: string, command: string, dir: string, pane: Pane): Promise<void> {
  const ratios: number[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const ours = await lazyshellSeconds(command, pane);
    const theirs = await tmuxSeconds(command, dir, pane);
    ratios.push(ours / theirs);
    console.log(
      `${name.padEnd(16)} run ${run}: lazyshell ${ours.toFixed(2)} s, tmux ${
        theirs.toFixed(2)
      } s, ` +
        `ratio ${(ours / theirs).toFixed(2)}`,
    );
  }
  console.log(`${name.padEnd(16)} worst of ${RUNS}: ratio ${Math.max(...ratios).toFixed(2)}`);
}

async function frames(dir: string): Promise<void> {
  const file = `${dir}/fullframe.txt`;
  await writeCorpus(file, "fullframe", SIZE);
  const mb = ((await Deno.stat(file)).size / 1024 / 1024).toFixed(0);
  console.log(`synchronized frames, time ratio lazyshell/tmux per run (load ${loadAverage()})`);
  await runs(`cat ${mb} MB`, `cat ${file}`, dir, WIDE);
  await Deno.remove(file);
  const draw = `${Deno.execPath()} run --quiet ${WRITER} ${FRAMES} 120 40 1`;
  await runs(`${FRAMES} frames 1ms`, draw, dir, { cols: 120, rows: 40 });
  console.log(`(load ${loadAverage()})`);
}

function loadAverage(): string {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  } catch {
    return "unknown";
  }
}

const dir = await Deno.makeTempDir({ prefix: "lazyshell-bench-" });
try {
  const tmux = await hasTmux();
  if (ONLY !== "frames") await corpora(dir, tmux);
  if (tmux) await frames(dir);
  else console.log("synchronized frames: tmux not installed");
} finally {
  await Deno.remove(dir, { recursive: true });
}
