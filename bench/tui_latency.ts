/**
 * Input latency and first frame of the TUI (docs/tui.md "What bounds the figures"), against tmux
 * and two bare-Deno floors in the same run, each in a 120x32 PTY read
 * through the headless emulator:
 *
 * - latency: one key written to the host PTY → the child's echo visible on
 *   the host screen (the child is `cat` in terminal mode; the echo comes
 *   from its PTY), p50/p95 over BENCH_KEYS keys (default 200). The targets
 *   stay open side by side and the keys are typed in BENCH_ROUNDS rounds
 *   (default 4), each target in turn, so that a noisy machine slows all of
 *   them alike; each ratio is printed over all keys and per round. The
 *   floors: a bare Deno process that only passes keys to a PTY and its
 *   echo back (tui_latency_floor.ts), and the same split into a client and
 *   a server on a unix socket (tui_latency_floor2.ts). BENCH_B=<other
 *   checkouts' main.ts, comma-separated> adds those lazyshells (B, C, …),
 *   typed into in the same rounds: an A/B of a change.
 * - first frame: spawn → the hint bar on screen, p50 of 5 starts
 *   (`deno run`, cached). Target ≤ 300 ms.
 */

import { STARTING } from "../src/tui/splash.ts";
import type { Session } from "../src/session/session.ts";
import { screenText, waitFor } from "../src/session/test_util.ts";
import {
  delay,
  hasTmux,
  type Lab,
  lab,
  MAIN,
  percentile,
  project,
  startLazyshell,
  startTmux,
  tmuxCommand,
} from "./tui_harness.ts";

const KEYS = Number(Deno.env.get("BENCH_KEYS") ?? "200");
/** Rounds the keys are typed in, each target in turn: the machine's drift hits all of them alike. */
const ROUNDS = Math.max(1, Number(Deno.env.get("BENCH_ROUNDS") ?? "4"));
const LETTERS = "abcdefgijknopqrstuvwxyz";

/** One program under test in its host PTY: keys are typed into `host`, its echo read there. */
interface Target {
  readonly name: string;
  readonly host: Session;
  /** The line typed so far (cleared with ctrl+u at 40 characters). */
  line: string;
  readonly times: number[];
  close(): Promise<void>;
}

/** Types `count` letters one at a time into the target, timing each until it is on screen. */
async function typeAndTime(t: Target, count: number): Promise<number[]> {
  const { host } = t;
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    if (t.line.length >= 40) {
      host.write("\x15"); // ctrl+u: the child's PTY erases the line
      const gone = t.line;
      await waitFor(host, () => !screenText(host).includes(gone), 10_000, "the line to clear");
      t.line = "";
      await delay(20);
    }
    const c = LETTERS[(t.times.length + i) * 7 % LETTERS.length]!;
    t.line += c;
    const want = t.line;
    const t0 = performance.now();
    host.write(c);
    await waitFor(host, () => screenText(host).includes(want), 10_000, `echo of ${want}`);
    times.push(performance.now() - t0);
    await delay(5);
  }
  return times;
}

function target(name: string, host: Session, close: () => Promise<void>): Target {
  return { name, host, line: "", times: [], close };
}

/**
 * lazyshell in the lab; `main`: another checkout's main.ts (BENCH_B), with
 * its own server (`-L`), typed into in the same rounds: an A/B of a change.
 */
async function openLazyshell(l: Lab, main?: string, name = "B"): Promise<Target> {
  const args = ["--project", project(l, ["cat"])];
  const tui = main
    ? l.store.create({ command: `exec deno run -A ${main} -L bench-${name} ${args.join(" ")}` })
    : startLazyshell(l, args);
  await waitFor(tui, () => /s1/.test(screenText(tui)) && /n new/.test(screenText(tui)), 60_000);
  tui.write("\r");
  await waitFor(tui, () => /TERMINAL/.test(screenText(tui)), 30_000);
  await delay(500);
  return target(main ? `lazyshell ${name} (${main})` : "lazyshell", tui, async () => {
    tui.write("\x1dq");
    await waitFor(tui, () => /still running/.test(screenText(tui)), 30_000);
    tui.write("y");
    await tui.exited;
  });
}

async function openFloor(l: Lab): Promise<Target> {
  const floor = new URL("./tui_latency_floor.ts", import.meta.url).pathname;
  const s = l.store.create({ command: `exec deno run -A ${floor}` });
  // Started once it answers: the first key's echo comes back.
  s.write("x");
  await waitFor(s, () => screenText(s).includes("x"), 60_000, "the floor's echo");
  s.write("\x15");
  await delay(500);
  return target("floor", s, async () => {
    s.kill("SIGTERM");
    await s.exited;
  });
}

/** The same through a bare Deno client and server on a unix socket (tui_latency_floor2.ts). */
async function openFloor2(l: Lab): Promise<Target> {
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
  return target("two-process floor", s, async () => {
    s.kill("SIGTERM");
    await s.exited;
    await server.status;
  });
}

async function openTmux(l: Lab): Promise<Target> {
  const socket = `lazyshell-bench-lat-${Deno.pid}`;
  const { client } = await startTmux(l, socket, ["cat"]);
  await delay(500);
  return target("tmux", client, () => tmuxCommand(l, socket, "kill-server").then(() => {}));
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
  `p50 ${percentile(xs, 50).toFixed(2)} ms, p95 ${percentile(xs, 95).toFixed(2)} ms`;

/** The median of per-round ratios of `a` to `b` at percentile `p` (each round's pair typed together). */
function ratio(a: Target, b: Target, p: number): string {
  const per = ROUNDS;
  const n = Math.floor(a.times.length / per);
  const rs: number[] = [];
  for (let r = 0; r < per; r++) {
    const slice = (t: Target) => t.times.slice(r * n, (r + 1) * n);
    rs.push(percentile(slice(a), p) / percentile(slice(b), p));
  }
  const all = percentile(a.times, p) / percentile(b.times, p);
  return `${all.toFixed(2)} (rounds ${rs.map((x) => x.toFixed(2)).join(" ")})`;
}

console.log(
  `tui_latency: ${KEYS} keys in ${ROUNDS} rounds (each target in turn), ` +
    `child echo through a 120x32 PTY`,
);
{
  await using l = lab();
  const targets = [await openLazyshell(l), await openFloor(l), await openFloor2(l)];
  if (await hasTmux()) targets.push(await openTmux(l));
  const others: Target[] = [];
  for (const [i, main] of (Deno.env.get("BENCH_B") ?? "").split(",").filter(Boolean).entries()) {
    others.push(await openLazyshell(l, main, String.fromCharCode(66 + i)));
  }
  targets.push(...others);
  try {
    const each = Math.ceil(KEYS / ROUNDS);
    for (let r = 0; r < ROUNDS; r++) {
      for (const t of targets) t.times.push(...await typeAndTime(t, each));
    }
  } finally {
    for (const t of targets) await t.close();
  }
  const [ours, floor, floor2] = targets as [Target, Target, Target];
  const tmux = targets.find((t) => t.name === "tmux");
  for (const t of targets) console.log(`${t.name}: ${fmt(t.times)}`);
  console.log(`  (floor: a bare Deno key-to-PTY-to-stdout pass-through, tui_latency_floor.ts;`);
  console.log(`   two-process floor: bare Deno client ⇄ unix socket ⇄ bare Deno server ⇄ PTY)`);
  console.log(
    `ratio lazyshell/one-process floor: p50 ${ratio(ours, floor, 50)}, p95 ${
      ratio(ours, floor, 95)
    }`,
  );
  console.log(
    `ratio lazyshell/two-process floor: p50 ${ratio(ours, floor2, 50)}, p95 ${
      ratio(ours, floor2, 95)
    }`,
  );
  if (tmux) {
    console.log(`ratio lazyshell/tmux: p50 ${ratio(ours, tmux, 50)}, p95 ${ratio(ours, tmux, 95)}`);
    console.log(`ratio floor/tmux: p50 ${ratio(floor, tmux, 50)}`);
  }
  for (const [i, other] of others.entries()) {
    const name = String.fromCharCode(66 + i);
    console.log(
      `ratio lazyshell/${name}: p50 ${ratio(ours, other, 50)}, p95 ${ratio(ours, other, 95)}`,
    );
    console.log(`ratio ${name}/one-process floor: p50 ${ratio(other, floor, 50)}`);
  }
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
