/**
 * Input latency and first frame of the TUI (issue #5), against tmux in the
 * same run, both in a 120x32 PTY read through the headless emulator:
 *
 * - latency: one key written to the host PTY → the child's echo visible on
 *   the host screen (the child is `cat` in terminal mode; the echo comes
 *   from its PTY), p50/p95 over BENCH_KEYS keys (default 200). Target:
 *   lazyshell ÷ tmux ≤ 1.0. For scale, the same for the floor: a bare Deno
 *   process that only passes keys to a PTY and its echo back
 *   (tui_latency_floor.ts).
 * - first frame: spawn → the hint bar on screen, p50 of 5 starts
 *   (`deno run`, cached). Target ≤ 300 ms.
 */

import { STARTING } from "../src/tui/splash.ts";
import type { Session } from "../src/session/session.ts";
import { screenText, waitFor } from "../src/session/test_util.ts";
import {
  delay,
  hasTmux,
  lab,
  MAIN,
  percentile,
  project,
  startLazyshell,
  startTmux,
  tmuxCommand,
} from "./tui_harness.ts";

const KEYS = Number(Deno.env.get("BENCH_KEYS") ?? "200");
const LETTERS = "abcdefgijknopqrstuvwxyz";

/** Types KEYS letters one at a time, timing each until it is on screen. */
async function typeAndTime(host: Session): Promise<number[]> {
  const times: number[] = [];
  let line = "";
  for (let i = 0; i < KEYS; i++) {
    if (line.length >= 40) {
      host.write("\x15"); // ctrl+u: the child's PTY erases the line
      const gone = line;
      await waitFor(host, () => !screenText(host).includes(gone), 10_000, "the line to clear");
      line = "";
      await delay(20);
    }
    const c = LETTERS[(i * 7) % LETTERS.length]!;
    line += c;
    const want = line;
    const t0 = performance.now();
    host.write(c);
    await waitFor(host, () => screenText(host).includes(want), 10_000, `echo of ${want}`);
    times.push(performance.now() - t0);
    await delay(5);
  }
  return times;
}

async function lazyshellLatency(): Promise<number[]> {
  await using l = lab();
  const tui = startLazyshell(l, ["--project", project(l, ["cat"])]);
  await waitFor(tui, () => /s1/.test(screenText(tui)) && /n new/.test(screenText(tui)), 60_000);
  tui.write("\r");
  await waitFor(tui, () => /TERMINAL/.test(screenText(tui)), 30_000);
  await delay(500);
  const times = await typeAndTime(tui);
  tui.write("\x1dq");
  await waitFor(tui, () => /still running/.test(screenText(tui)), 30_000);
  tui.write("y");
  await tui.exited;
  return times;
}

async function floorLatency(): Promise<number[]> {
  await using l = lab();
  const floor = new URL("./tui_latency_floor.ts", import.meta.url).pathname;
  const s = l.store.create({ command: `exec deno run -A ${floor}` });
  // Started once it answers: the first key's echo comes back.
  s.write("x");
  await waitFor(s, () => screenText(s).includes("x"), 60_000, "the floor's echo");
  s.write("\x15");
  await delay(500);
  const times = await typeAndTime(s);
  s.kill("SIGTERM");
  await s.exited;
  return times;
}

/** The same through a bare Deno client and server on a unix socket (tui_latency_floor2.ts). */
async function floor2Latency(): Promise<number[]> {
  await using l = lab();
  const floor = new URL("./tui_latency_floor2.ts", import.meta.url).pathname;
  const socket = `${l.dir}/floor.sock`;
  const server = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", floor, "serve", socket],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = server.stdout.pipeThrough(new TextDecoderStream()).getReader();
  for (let text = ""; !text.includes("ready");) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the floor server ended");
    text += value;
  }
  void reader.cancel();
  const s = l.store.create({ command: `exec deno run -A ${floor} relay ${socket}` });
  s.write("x");
  await waitFor(s, () => screenText(s).includes("x"), 60_000, "the two-process floor's echo");
  s.write("\x15");
  await delay(500);
  const times = await typeAndTime(s);
  s.kill("SIGTERM");
  await s.exited;
  await server.status;
  return times;
}

async function tmuxLatency(): Promise<number[]> {
  await using l = lab();
  const socket = `lazyshell-bench-lat-${Deno.pid}`;
  try {
    const { client } = await startTmux(l, socket, ["cat"]);
    await delay(500);
    return await typeAndTime(client);
  } finally {
    await tmuxCommand(l, socket, "kill-server");
  }
}

/** Spawn → first frame (the layout, "starting…") and → ready (the loop's own frame). */
async function firstFrames(): Promise<{ first: number[]; ready: number[] }> {
  const first: number[] = [];
  const ready: number[] = [];
  for (let i = 0; i < 5; i++) {
    await using l = lab();
    const t0 = performance.now();
    const tui = startLazyshell(l);
    await waitFor(tui, () => /n new/.test(screenText(tui)), 60_000, "the first frame");
    first.push(performance.now() - t0);
    await waitFor(
      tui,
      () => /n new/.test(screenText(tui)) && !screenText(tui).includes(STARTING),
      60_000,
      "the loop's first frame",
    );
    ready.push(performance.now() - t0);
    tui.write("q");
    await tui.exited;
  }
  return { first, ready };
}

const fmt = (xs: number[]) =>
  `p50 ${percentile(xs, 50).toFixed(1)} ms, p95 ${percentile(xs, 95).toFixed(1)} ms`;

console.log(`tui_latency: ${KEYS} keys, child echo through a 120x32 PTY`);
const ours = await lazyshellLatency();
console.log(`lazyshell: ${fmt(ours)}`);
const floor = await floorLatency();
console.log(`floor (a bare Deno key-to-PTY-to-stdout pass-through): ${fmt(floor)}`);
const floor2 = await floor2Latency();
console.log(
  `two-process floor (bare Deno client ⇄ unix socket ⇄ bare Deno server ⇄ PTY): ${fmt(floor2)}`,
);
console.log(
  `ratio lazyshell/two-process floor: p50 ${
    (percentile(ours, 50) / percentile(floor2, 50)).toFixed(2)
  }, p95 ${(percentile(ours, 95) / percentile(floor2, 95)).toFixed(2)} (target ≤ 1.3); ` +
    `lazyshell/one-process floor p50 ${(percentile(ours, 50) / percentile(floor, 50)).toFixed(2)}`,
);
if (await hasTmux()) {
  const theirs = await tmuxLatency();
  console.log(`tmux:      ${fmt(theirs)}`);
  console.log(
    `ratio lazyshell/tmux: p50 ${(percentile(ours, 50) / percentile(theirs, 50)).toFixed(2)}, p95 ${
      (percentile(ours, 95) / percentile(theirs, 95)).toFixed(2)
    } (target ≤ 1.0); floor/tmux p50 ${
      (percentile(floor, 50) / percentile(theirs, 50)).toFixed(2)
    }`,
  );
}
const versions: number[] = [];
for (let i = 0; i < 5; i++) {
  const t0 = performance.now();
  await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "--version"],
    stdout: "null",
  })
    .output();
  versions.push(performance.now() - t0);
}
console.log(`reference: \`deno run main.ts --version\` (runtime start-up): ${fmt(versions)}`);
const starts = await firstFrames();
console.log(`first frame after start: ${fmt(starts.first)} (target ≤ 300 ms)`);
console.log(`ready (sessions loaded, keys handled): ${fmt(starts.ready)}`);
