/**
 * Throughput: the same 50 MB workloads through a lazyshell session and
 * through a detached tmux pane of the same size, in one run (docs/architecture.md "The emulator").
 *
 * lazyshell is timed from spawn until every byte is parsed by its emulator
 * (the stricter measure); tmux is timed around `cat` inside its pane, after
 * which its server has read all but its PTY buffer. Figures: MB/s each and
 * the ratio lazyshell ÷ tmux (≥ 1.0 means lazyshell is as fast or faster).
 */

import { SessionStore } from "../src/session/store.ts";
import { WORKLOADS, writeCorpus } from "./corpus.ts";

const SIZE = Number(Deno.env.get("BENCH_MB") ?? "50") * 1024 * 1024;
const COLS = 200;
const ROWS = 60;
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? "2");

async function hasTmux(): Promise<boolean> {
  try {
    return (await new Deno.Command("tmux", { args: ["-V"], stdout: "null" }).output()).success;
  } catch {
    return false;
  }
}

async function lazyshellSeconds(file: string): Promise<number> {
  await using store = new SessionStore({
    shell: "/bin/sh",
    cols: COLS,
    rows: ROWS,
    scrollback: 5000,
  });
  const start = performance.now();
  const session = store.create({ command: `cat ${file}` });
  await session.exited;
  return (performance.now() - start) / 1000;
}

async function tmuxSeconds(file: string, dir: string): Promise<number> {
  const socket = `lazyshell-bench-${Deno.pid}`;
  const out = `${dir}/tmux-time`;
  await Deno.remove(out).catch(() => {});
  const script = `s=$(date +%s%N); cat ${file}; e=$(date +%s%N); echo $((e - s)) > ${out}.tmp; ` +
    `mv ${out}.tmp ${out}; sleep 30`;
  const tmux = (...args: string[]) =>
    new Deno.Command("tmux", { args: ["-L", socket, "-f", "/dev/null", ...args] }).output();
  await tmux("new-session", "-d", "-x", String(COLS), "-y", String(ROWS), "sh", "-c", script);
  try {
    for (let i = 0; i < 6000; i++) {
      try {
        return Number(await Deno.readTextFile(out)) / 1e9;
      } catch {
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    throw new Error("tmux run did not finish in 60 s");
  } finally {
    await tmux("kill-server");
  }
}

const dir = await Deno.makeTempDir({ prefix: "lazyshell-bench-" });
try {
  const tmux = await hasTmux();
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
      ours = Math.min(ours, await lazyshellSeconds(file));
      if (tmux) theirs = Math.min(theirs, await tmuxSeconds(file, dir));
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
} finally {
  await Deno.remove(dir, { recursive: true });
}
