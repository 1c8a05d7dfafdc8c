/**
 * CPU of the TUI (docs/tui.md "What bounds the figures"): lazyshell with 8 sessions each running a
 * 10 Hz spinner, for BENCH_SECONDS (default 30), against tmux running the
 * same 8 spinners (8 windows, one client attached) in the same run, both
 * in a 120x32 PTY. Figures: CPU % of one core of lazyshell's server +
 * client and of tmux's server + client, frames/s written to the host terminal
 * (lazyshell: synchronized-output frames). Targets: ≤ 2 % of a core,
 * ≤ 12 frames/s. lazyshell and tmux alternate for BENCH_ROUNDS rounds
 * (default 2) and the medians are reported: the load of a shared machine
 * moves by tenths of a point between runs. For scale it also measures
 * `lazyshell serve` (the runtime without a screen), the floor of
 * node-pty (+ xterm) alone and that of the timer grid's wake-ups alone.
 */

import { screenText, waitFor } from "../src/session/test_util.ts";
import {
  cpuSeconds,
  delay,
  hasTmux,
  lab,
  MAIN,
  project,
  serverPidOf,
  SPINNER,
  startLazyshell,
  startTmux,
  tmuxCommand,
} from "./tui_harness.ts";
import { median } from "./stats.ts";

const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? "30");
const SPINNERS = Array.from({ length: 8 }, () => SPINNER);

async function lazyshell(): Promise<{ cpu: number; fps: number }> {
  await using l = lab();
  const tui = startLazyshell(l, ["--project", project(l, SPINNERS)]);
  let frames = 0;
  using _tap = tui.tap((data) => frames += data.split("\x1b[?2026h").length - 1);
  await waitFor(tui, () => /s8/.test(screenText(tui)) && /working/.test(screenText(tui)), 60_000);
  await delay(2000); // start-up settles
  // The client and the server it attached to (started in the background).
  const server = serverPidOf(l) ?? tui.pid;
  const cpuNow = () => cpuSeconds(tui.pid) + (server === tui.pid ? 0 : cpuSeconds(server));
  const cpu0 = cpuNow();
  const f0 = frames;
  const t0 = performance.now();
  await delay(SECONDS * 1000);
  const wall = (performance.now() - t0) / 1000;
  const result = { cpu: (cpuNow() - cpu0) / wall * 100, fps: (frames - f0) / wall };
  tui.write("q");
  await waitFor(tui, () => /still running/.test(screenText(tui)), 30_000);
  tui.write("y");
  await tui.exited;
  return result;
}

/** The same sessions under `lazyshell serve` (runtime, no TUI): what the TUI itself adds. */
async function serve(): Promise<number> {
  await using l = lab();
  const s = l.store.create({
    command: `exec deno run -A ${MAIN} serve --project ${project(l, SPINNERS)}`,
  });
  await waitFor(s, () => /ready/.test(screenText(s)), 60_000, "serve ready");
  await delay(2000);
  const cpu0 = cpuSeconds(s.pid);
  const t0 = performance.now();
  await delay(SECONDS * 1000);
  const wall = (performance.now() - t0) / 1000;
  const cpu = (cpuSeconds(s.pid) - cpu0) / wall * 100;
  s.kill("SIGTERM");
  await s.exited;
  return cpu;
}

async function tmux(): Promise<{ cpu: number; writesPerSecond: number }> {
  await using l = lab();
  const socket = `lazyshell-bench-cpu-${Deno.pid}`;
  try {
    const { client, serverPid } = await startTmux(l, socket, SPINNERS);
    let writes = 0;
    using _tap = client.tap(() => writes++);
    await delay(2000);
    const cpu0 = cpuSeconds(serverPid) + cpuSeconds(client.pid);
    const w0 = writes;
    const t0 = performance.now();
    await delay(SECONDS * 1000);
    const wall = (performance.now() - t0) / 1000;
    const cpu = cpuSeconds(serverPid) + cpuSeconds(client.pid) - cpu0;
    return { cpu: cpu / wall * 100, writesPerSecond: (writes - w0) / wall };
  } finally {
    await tmuxCommand(l, socket, "kill-server");
  }
}

const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? "2");

console.log(
  `tui_cpu: 8 sessions with a 10 Hz spinner, 120x32, ${SECONDS} s each; lazyshell and tmux ` +
    `alternate for ${ROUNDS} rounds (this machine's load moves between runs)`,
);
const withTmux = await hasTmux();
if (!withTmux) console.log("tmux not installed: no reference");
const ours: Array<{ cpu: number; fps: number }> = [];
const ratios: number[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  const run = await lazyshell();
  ours.push(run);
  console.log(
    `round ${round}: lazyshell ${run.cpu.toFixed(2)} % of one core, ${run.fps.toFixed(1)} frames/s`,
  );
  if (!withTmux) continue;
  const theirs = await tmux();
  ratios.push(run.cpu / theirs.cpu);
  console.log(
    `round ${round}: tmux (server + client) ${theirs.cpu.toFixed(2)} % of one core, ${
      theirs.writesPerSecond.toFixed(1)
    } output chunks/s → ratio ${(run.cpu / theirs.cpu).toFixed(2)}`,
  );
}
const cpu = median(ours.map((r) => r.cpu));
console.log(
  `lazyshell: median ${cpu.toFixed(2)} % of one core, ${
    median(ours.map((r) => r.fps)).toFixed(1)
  } frames/s (targets ≤ 2 %, ≤ 12 fps)`,
);
if (ratios.length > 0) console.log(`ratio lazyshell/tmux CPU: median ${median(ratios).toFixed(2)}`);
const runtimeOnly = await serve();
console.log(
  `lazyshell serve (same sessions, no TUI): ${
    runtimeOnly.toFixed(2)
  } % of one core → the TUI adds ${(cpu - runtimeOnly).toFixed(2)} %`,
);
const floor = await new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", new URL("./tui_cpu_floor.ts", import.meta.url).pathname],
  stdout: "piped",
}).output();
for (const line of new TextDecoder().decode(floor.stdout).trim().split("\n")) {
  const [mode, pct] = line.split(" ");
  console.log(
    mode!.startsWith("empty-")
      ? `floor: ${mode} (the grid's wake-ups alone, nothing read): ${pct} % of one core`
      : `floor: ${mode} alone, same 8 spinners: ${pct} % of one core`,
  );
}
