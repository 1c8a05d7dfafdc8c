/**
 * Memory (docs/architecture.md "The emulator"), each figure against a reference measured in the same
 * run on the same machine:
 *
 * 1. Floors: a bare `deno run` of an idle script, and tmux's server with one
 *    idle window.
 * 2. One session's scrollback: SESSIONS sessions each print 5000 lines of
 *    200 columns (8 coloured runs a line) in a 200x60 screen, `lazyshell
 *    serve` (scrollback 5000) against tmux (history-limit 5000); per session
 *    = RSS growth ÷ SESSIONS. Target ≤ 1.5× tmux.
 * 3. 64 sessions after each printed 5500 such lines: the server's total RSS
 *    against tmux's server. Target ≤ 2×.
 * 4. The app: `lazyshell` in a 120x32 PTY with 8 idle shells, all processes
 *    summed (server, client, plugin processes), idle 60 s after start with
 *    tabs never opened (target ≤ 150 MB), then after opening every tab once
 *    and 60 s back on Sessions (target ≤ 200 MB); against the floor of that many
 *    bare Deno processes. RSS counts the Deno executable's shared code pages
 *    once per process: PSS is printed too.
 * 5. In process (bench/memory_probe.ts): one line of scrollback in the
 *    emulator as lazyshell runs it, and `tail(100)` on 5000 lines against
 *    the same read on 100 lines (time and bytes allocated: a read costs what
 *    it returns when the ratio is ~1); `ctl read --tail 100` round trips.
 *
 * BENCH_MAIN=<checkout>/main.ts measures another checkout (before/after);
 * BENCH_PARTS=1,2,... runs only those parts; BENCH_IDLE_SECONDS (60).
 */

import { MB, type Server, startServe } from "../tools/abuse/server.ts";
import { wideLogLine } from "./corpus.ts";
import { delay, hasTmux, lab as tuiLab, serverPidOf } from "./tui_harness.ts";
import { median } from "./stats.ts";
import { screenText, waitFor } from "../src/session/test_util.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const MAIN = Deno.env.get("BENCH_MAIN") ?? `${ROOT}main.ts`;
const PARTS = (Deno.env.get("BENCH_PARTS") ?? "1,2,3,4,5").split(",").map(Number);
const SESSIONS = 4;
const IDLE_SECONDS = Number(Deno.env.get("BENCH_IDLE_SECONDS") ?? "60");
const END = "END-OF-OUTPUT";
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

function rssOf(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(Deno.readTextFileSync(`/proc/${pid}/status`));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Proportional set size: RSS with each shared page divided among the
 * processes sharing it. Every lazyshell process maps the same Deno
 * executable (~25–45 MB of its code resident in each): summed RSS counts
 * those pages once per process, summed PSS once in all.
 */
function pssOf(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(Deno.readTextFileSync(`/proc/${pid}/smaps_rollup`));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Children of `pid` (from /proc), with their command lines. */
function childrenOf(pid: number): { pid: number; cmdline: string }[] {
  const out: { pid: number; cmdline: string }[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) !== pid || fields[0] === "Z") continue;
      const cmdline = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).replaceAll("\0", " ");
      out.push({ pid: Number(entry.name), cmdline });
    } catch { /* gone */ }
  }
  return out;
}

/** RSS once it has stopped moving (the last output parsed, garbage collected): 3 equal reads. */
async function settled(rss: () => number): Promise<number> {
  let last = rss();
  let same = 0;
  for (let i = 0; i < 60 && same < 3; i++) {
    await delay(500);
    const now = rss();
    same = Math.abs(now - last) < 256 * 1024 ? same + 1 : 0;
    last = now;
  }
  return last;
}

interface Lab {
  readonly dir: string;
  readonly corpus: string;
}

function makeLab(): Lab {
  const dir = Deno.makeTempDirSync({ prefix: "lazyshell-mem-" });
  let text = "";
  for (let i = 0; i < 5000; i++) text += wideLogLine(i) + "\n";
  Deno.writeTextFileSync(`${dir}/corpus.txt`, text);
  return { dir, corpus: `${dir}/corpus.txt` };
}

/** The command each measured session runs: the corpus (plus `extra` lines), a marker, then idle. */
function printer(l: Lab, extra = 0): string {
  const more = extra > 0 ? `seq 1 ${extra}; ` : "";
  return `cat ${l.corpus}; ${more}echo ${END}; exec cat`;
}

// ---------------------------------------------------------------- floors

async function bareDeno(l: Lab): Promise<number> {
  const file = `${l.dir}/idle.ts`;
  Deno.writeTextFileSync(file, "setInterval(() => {}, 1 << 30);\n");
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", file],
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    return await settled(() => rssOf(child.pid));
  } finally {
    child.kill("SIGKILL");
    await child.status;
  }
}

class Tmux implements AsyncDisposable {
  readonly socket = `lazyshell-mem-${Deno.pid}-${Math.floor(Math.random() * 1e6)}`;
  readonly conf: string;
  pid = 0;

  constructor(l: Lab) {
    this.conf = `${l.dir}/tmux.conf`;
    Deno.writeTextFileSync(this.conf, "set -g history-limit 5000\nset -g status off\n");
  }

  async run(...args: string[]): Promise<string> {
    const out = await new Deno.Command("tmux", {
      args: ["-L", this.socket, "-f", this.conf, ...args],
      stderr: "piped",
    }).output();
    if (!out.success) throw new Error(`tmux ${args[0]}: ${new TextDecoder().decode(out.stderr)}`);
    return new TextDecoder().decode(out.stdout);
  }

  async start(): Promise<void> {
    await this.run("new-session", "-d", "-s", "m", "-x", "200", "-y", "60", "cat");
    this.pid = Number((await this.run("display", "-p", "#{pid}")).trim());
  }

  async window(command: string): Promise<string> {
    return (await this.run("new-window", "-d", "-P", "-F", "#{window_id}", command)).trim();
  }

  async waitFor(window: string, text: string): Promise<void> {
    for (let i = 0; i < 1200; i++) {
      if ((await this.run("capture-pane", "-p", "-t", window)).includes(text)) return;
      await delay(100);
    }
    throw new Error(`tmux window ${window} never printed ${text}`);
  }

  rss(): number {
    return rssOf(this.pid);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.run("kill-server").catch(() => {});
  }
}

async function serve(l: Lab): Promise<Server> {
  return await startServe({
    main: MAIN,
    config: "default_size:\n  cols: 200\n  rows: 60\nscrollback: 5000\n",
    cwd: l.dir,
  });
}

async function waitForEnd(server: Server, target: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    const r = await server.call("read", { target });
    if (r.ok && (r.result as { lines: string[] }).lines.some((x) => x.includes(END))) return;
    await delay(100);
  }
  throw new Error(`${target} never printed ${END}`);
}

/** RSS growth of a server for `count` printing sessions: [before, after] (one idle session first). */
async function lazyshellGrowth(l: Lab, count: number, extra: number): Promise<[number, number]> {
  await using server = await serve(l);
  await server.call("new", { name: "idle", command: "exec cat" });
  const before = await settled(() => server.rss());
  const names = Array.from({ length: count }, (_, i) => `p${i + 1}`);
  for (const name of names) await server.call("new", { name, command: printer(l, extra) });
  for (const name of names) await waitForEnd(server, name);
  return [before, await settled(() => server.rss())];
}

async function tmuxGrowth(l: Lab, count: number, extra: number): Promise<[number, number]> {
  await using tmux = new Tmux(l);
  await tmux.start();
  const before = await settled(() => tmux.rss());
  const windows: string[] = [];
  for (let i = 0; i < count; i++) windows.push(await tmux.window(printer(l, extra)));
  for (const w of windows) await tmux.waitFor(w, END);
  return [before, await settled(() => tmux.rss())];
}

// ---------------------------------------------------------------- the app

async function appTotals(): Promise<
  { idle: number; idleProcesses: number; tabs: number; processes: number }
> {
  // The TUI benches' lab: its own HOME, config, data, runtime and state dirs; ends the server.
  await using app = tuiLab();
  const project = `${app.dir}/lazyshell.yml`;
  const shells = Array.from({ length: 8 }, (_, i) => `  - name: sh${i + 1}\n`);
  Deno.writeTextFileSync(project, `sessions:\n${shells.join("")}`);
  const client = app.store.create({
    command: `exec ${Deno.execPath()} run -A --quiet ${MAIN} --yes --project ${project}`,
  });
  try {
    await waitFor(client, () => /sh8/.test(screenText(client)), 60_000, "the 8 shells listed");
    const server = serverPidOf(app);
    if (server === null) throw new Error("The server did not log its pid");
    const total = () => {
      const plugins = childrenOf(server).filter((c) => c.cmdline.includes("__plugin"));
      const pids = [server, client.pid, ...plugins.map((p) => p.pid)];
      return {
        rss: pids.reduce((s, p) => s + rssOf(p), 0),
        pss: pids.reduce((s, p) => s + pssOf(p), 0),
        processes: pids.length,
      };
    };
    const report = (when: string) =>
      console.log(
        `  ${when}: server ${mb(rssOf(server))} RSS (${mb(pssOf(server))} PSS), client ` +
          `${mb(rssOf(client.pid))} RSS (${mb(pssOf(client.pid))} PSS); all: ${
            mb(total().rss)
          } RSS, ${mb(total().pss)} PSS`,
      );
    await delay(5000);
    report("5 s after start");
    // Idle as long as after the tabs below: V8 and util/memory_trim.ts give back what start-up left.
    await delay(Math.max(0, IDLE_SECONDS * 1000 - 5000));
    const idle = await settled(() => total().rss);
    const idleProcesses = total().processes;
    report(`${IDLE_SECONDS} s after start`);
    // Tabs 2–6: every built-in (agents, watchers, stats, env, changes); a missing one is a no-op.
    for (const key of ["2", "3", "4", "5", "6"]) {
      client.write(key);
      await delay(1500); // the tab starts and draws its first frame
    }
    console.log(`  every tab open: ${mb(total().rss)} RSS in ${total().processes} processes`);
    client.write("1");
    await delay(IDLE_SECONDS * 1000);
    const tabs = await settled(() => total().rss);
    report(`${IDLE_SECONDS} s back on Sessions`);
    return { idle, idleProcesses, tabs, processes: total().processes };
  } finally {
    // With BENCH_MAIN (another checkout), that checkout's client ends its own server.
    await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", MAIN, "kill-server"],
      env: app.env,
      clearEnv: true,
      stdout: "null",
      stderr: "null",
    }).output();
    client.kill("SIGKILL");
  }
}

// ---------------------------------------------------------------- reads

async function tailRoundTrips(l: Lab): Promise<number> {
  await using server = await serve(l);
  await server.call("new", { name: "p", command: printer(l) });
  await waitForEnd(server, "p");
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    const r = await server.call("read", { target: "p", tail: 100 });
    if (!r.ok) throw new Error("read --tail failed");
    times.push(performance.now() - t0);
  }
  return median(times.slice(20));
}

async function probe(): Promise<{
  perLine200: number;
  perLine80: number;
  tail5000: { us: number; bytes: number };
  tail100: { us: number; bytes: number };
}> {
  const root = MAIN.replace(/main\.ts$/, "");
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      "--v8-flags=--expose-gc",
      new URL("./memory_probe.ts", import.meta.url).pathname,
      root,
    ],
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error("memory_probe.ts failed");
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

// ---------------------------------------------------------------- main

const l = makeLab();
const tmuxOk = await hasTmux();
const verdict = (ok: boolean) => (ok ? "ok" : "OVER TARGET");
console.log(`memory: ${MAIN === `${ROOT}main.ts` ? "this checkout" : MAIN}`);
try {
  const bare = await bareDeno(l);
  if (PARTS.includes(1)) {
    console.log(`floor: a bare deno run (idle script) ${mb(bare)}`);
    if (tmuxOk) {
      await using tmux = new Tmux(l);
      await tmux.start();
      console.log(`floor: tmux server with one idle window ${mb(await settled(() => tmux.rss()))}`);
    }
  }
  if (PARTS.includes(5)) {
    const p = await probe();
    console.log(
      `emulator: one line of scrollback ${(p.perLine200 / 1024).toFixed(2)} KiB at 200 columns, ` +
        `${(p.perLine80 / 1024).toFixed(2)} KiB at 80 (heap + ArrayBuffers, at rest)`,
    );
    console.log(
      `tail(100) of 5000 lines: ${p.tail5000.us.toFixed(0)} µs, ${
        (p.tail5000.bytes / 1024).toFixed(0)
      } KiB allocated; of 100 lines: ${p.tail100.us.toFixed(0)} µs, ${
        (p.tail100.bytes / 1024).toFixed(0)
      } KiB → ratio ${(p.tail5000.us / p.tail100.us).toFixed(2)} (time), ${
        (p.tail5000.bytes / p.tail100.bytes).toFixed(2)
      } (bytes)`,
    );
    console.log(
      `ctl read --tail 100 of 5000 lines: p50 ${(await tailRoundTrips(l)).toFixed(2)} ms`,
    );
  }
  if (PARTS.includes(2)) {
    const [b0, b1] = await lazyshellGrowth(l, SESSIONS, 0);
    const ours = (b1 - b0) / SESSIONS;
    let line = `scrollback 5000 × 200 per session: lazyshell ${mb(ours)}`;
    if (tmuxOk) {
      const [t0, t1] = await tmuxGrowth(l, SESSIONS, 0);
      const theirs = (t1 - t0) / SESSIONS;
      line += `, tmux ${mb(theirs)} → ratio ${(ours / theirs).toFixed(2)} (target ≤ 1.5) ${
        verdict(ours / theirs <= 1.5)
      }`;
    }
    console.log(line);
  }
  if (PARTS.includes(3)) {
    const [, ours] = await lazyshellGrowth(l, 64, 500);
    let line = `64 sessions × 5500 lines: lazyshell server ${mb(ours)}`;
    if (tmuxOk) {
      const [, theirs] = await tmuxGrowth(l, 64, 500);
      line += `, tmux server ${mb(theirs)} → ratio ${(ours / theirs).toFixed(2)} (target ≤ 2) ${
        verdict(ours / theirs <= 2)
      }`;
    }
    console.log(line);
  }
  if (PARTS.includes(4)) {
    const app = await appTotals();
    console.log(
      `app, 8 idle shells, tabs never opened, ${IDLE_SECONDS} s: ${mb(app.idle)} in ` +
        `${app.idleProcesses} processes ` +
        `(target ≤ 150 MB) ${verdict(app.idle <= 150 * MB)}; floor ${
          mb(bare * app.idleProcesses)
        } (that many bare deno processes)`,
    );
    console.log(
      `app, every tab opened once, then ${IDLE_SECONDS} s on Sessions: ${mb(app.tabs)} in ` +
        `${app.processes} processes (target ≤ 200 MB) ${verdict(app.tabs <= 200 * MB)}; floor ${
          mb(bare * app.processes)
        }`,
    );
  }
} finally {
  Deno.removeSync(l.dir, { recursive: true });
}
