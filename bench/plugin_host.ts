/**
 * Plugin host figures (docs/plugin-protocol.md):
 * - start → manifest: spawn to manifest for a sh plugin, a Deno plugin and
 *   a built-in tab (`lazyshell __plugin stats serve`), against spawning
 *   `sh -c true` to its exit (the cost of any process start);
 * - key → plugin → frame → screen lines: host.key() until the frame is
 *   parsed, sanitised and turned into styled spans for a 80x24 tab (what
 *   the TUI's Tab.render returns; the cell diff is bench/tui_latency's), p50/p95 (target ≤ 5 ms p50),
 *   against a bare JSONL round trip through `cat` over the same pipes;
 * - host CPU while a plugin sends 60 frames/s of 80x24 coloured text,
 *   every frame sanitised as the TUI would, against the same host idle.
 */

import { builtinEntry, type PluginEntry } from "../src/plugin/discovery.ts";
import { PluginHost } from "../src/plugin/host.ts";
import { spawnGroup } from "../src/plugin/procgroup_posix.ts";
import { sanitizeView, toSpans } from "../src/plugin/view.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const ENV = { ...Deno.env.toObject() };
const ECHO: PluginEntry = {
  id: "bench",
  command: [Deno.execPath(), "run", "-A", "--quiet", `${ROOT}bench/plugin_echo.ts`],
  builtin: false,
  source: "bench/plugin_echo.ts",
};
const SH: PluginEntry = {
  id: "good",
  command: [`${ROOT}fixtures/plugins/good`],
  builtin: false,
  source: "fixtures/plugins/good",
};

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
const ms = (v: number) => `${v.toFixed(2)} ms`;

function host(entry: PluginEntry, onChange: () => void, env = ENV): PluginHost {
  return new PluginHost({ entry, env, width: 80, height: 24, spawn: spawnGroup, onChange });
}

async function startToManifest(entry: PluginEntry, runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    let done: () => void = () => {};
    const ready = new Promise<void>((r) => (done = r));
    const h: PluginHost = host(entry, () => {
      if (h.state.phase !== "starting") done();
    });
    const t0 = performance.now();
    h.start();
    await ready;
    times.push(performance.now() - t0);
    if (h.state.phase !== "running") throw new Error(`${entry.id}: ${h.state.error}`);
    await h.close();
  }
  return times;
}

async function spawnBaseline(runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await new Deno.Command("sh", { args: ["-c", "true"] }).output();
    times.push(performance.now() - t0);
  }
  return times;
}

const LETTERS = "abdefghjkmnoprstuvxyz"; // not q (global); c i l w act specially in the sh fixture

async function keyLatency(entry: PluginEntry, keys: number): Promise<number[]> {
  let wake: () => void = () => {};
  const h: PluginHost = host(entry, () => wake());
  const until = async (pred: () => boolean) => {
    while (!pred()) await new Promise<void>((r) => (wake = r));
  };
  h.start();
  await until(() => h.state.phase === "running");
  const times: number[] = [];
  for (let i = 0; i < keys; i++) {
    const ch = LETTERS[i % LETTERS.length]!;
    const expect = `key ${ch}`;
    const t0 = performance.now();
    h.key(ch, ch);
    await until(() => h.state.frame?.view === expect && h.state.frame !== null);
    sanitizeView(h.state.frame!.view, { width: 80, height: 24 }).map(toSpans);
    times.push(performance.now() - t0);
  }
  await h.close();
  return times;
}

async function pipeRoundTrip(n: number): Promise<number[]> {
  const child = new Deno.Command("cat", { stdin: "piped", stdout: "piped" }).spawn();
  const writer = child.stdin.getWriter();
  const reader = child.stdout.getReader();
  const enc = new TextEncoder();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await writer.write(enc.encode(`{"type":"key","key":"a","text":"a","n":${i}}\n`));
    let got = "";
    while (!got.endsWith("\n")) got += new TextDecoder().decode((await reader.read()).value);
    JSON.parse(got);
    times.push(performance.now() - t0);
  }
  await writer.close();
  reader.releaseLock();
  await child.stdout.cancel();
  await child.status;
  return times;
}

function cpuMs(): number {
  const fields = Deno.readTextFileSync("/proc/self/stat").split(") ")[1]!.split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime (fields 14, 15)
  return ticks * 10; // USER_HZ = 100
}

async function hostCpu(fps: number, seconds: number): Promise<{ cpu: number; frames: number }> {
  let frames = 0;
  const h: PluginHost = host(ECHO, () => {
    if (h.state.frame) {
      sanitizeView(h.state.frame.view, { width: 80, height: 24 }).map(toSpans);
      frames++;
    }
  }, { ...ENV, BENCH_FLOOD_FPS: String(fps) });
  h.start();
  while (h.state.phase === "starting") await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 500)); // warm up
  frames = 0;
  const c0 = cpuMs();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const cpu = cpuMs() - c0;
  const counted = frames;
  await h.close();
  return { cpu: cpu / (seconds * 1000) * 100, frames: counted / seconds };
}

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? "10");
const base = await spawnBaseline(RUNS);
console.log(
  `process start baseline (sh -c true): p50 ${ms(pct(base, 50))} p95 ${ms(pct(base, 95))}`,
);
for (
  const [name, entry] of [["sh plugin", SH], ["deno plugin", ECHO], [
    "built-in stats",
    builtinEntry("stats"),
  ]] as const
) {
  const t = await startToManifest(entry, RUNS);
  console.log(
    `start → manifest, ${name}: p50 ${ms(pct(t, 50))} p95 ${ms(pct(t, 95))} (${
      (pct(t, 50) / pct(base, 50)).toFixed(1)
    }× a bare process start)`,
  );
}
const rt = await pipeRoundTrip(500);
console.log(
  `reference JSONL round trip through cat: p50 ${ms(pct(rt, 50))} p95 ${ms(pct(rt, 95))}`,
);
const keys = await keyLatency(ECHO, 500);
console.log(
  `key → plugin → frame → screen lines (deno plugin): p50 ${ms(pct(keys, 50))} p95 ${
    ms(pct(keys, 95))
  } (target ≤ 5 ms p50: ${pct(keys, 50) <= 5 ? "met" : "MISSED"})`,
);
const shKeys = await keyLatency(SH, 100).catch(() => null);
if (shKeys) {
  console.log(
    `key → frame (sh fixture, forks sed per key): p50 ${ms(pct(shKeys, 50))} p95 ${
      ms(pct(shKeys, 95))
    }`,
  );
}
const idle = await hostCpu(0, 5);
const busy = await hostCpu(60, 10);
console.log(
  `host CPU, plugin at 60 frames/s (80x24, sanitised): ${busy.cpu.toFixed(1)}% of one core at ${
    busy.frames.toFixed(0)
  } frames/s received (idle plugin: ${idle.cpu.toFixed(1)}%)`,
);

/** The same flood drawn by the real TUI loop (Runtime + TuiApp), the plugin's tab shown. */
async function tuiCpu(fps: number, seconds: number): Promise<{ cpu: number; frames: number }> {
  const { Runtime } = await import("../src/runtime/runtime.ts");
  const { TuiApp } = await import("../src/tui/app.ts");
  const { startPluginTabs } = await import("../src/server/plugin_feed.ts");
  const dir = Deno.makeTempDirSync({ prefix: "lazyshell-bench-tui-" });
  Deno.mkdirSync(`${dir}/lazyshell/plugins`, { recursive: true });
  Deno.writeTextFileSync(
    `${dir}/lazyshell/plugins/flood`,
    `#!/bin/sh\nexec ${ECHO.command.join(" ")} "$@"\n`,
    { mode: 0o755 },
  );
  const env = { ...ENV, XDG_CONFIG_HOME: dir, BENCH_FLOOD_FPS: String(fps) };
  await using runtime = new Runtime({ env, cols: 120, rows: 32 });
  let app: InstanceType<typeof TuiApp> | null = null;
  await using wired = await startPluginTabs(runtime, {
    width: 100,
    height: 28,
    select: () => {},
  });
  app = new TuiApp({ runtime, write: () => {}, cols: 120, rows: 32, tabs: wired.tabs });
  app.start();
  const index = wired.tabs.findIndex((t) => t.id === "flood") + 1;
  app.feed(String(index + 1));
  wired.follow(app.state.tab, null);
  await new Promise((r) => setTimeout(r, 1500)); // plugins start, warm up
  const f0 = app.frames;
  const c0 = cpuMs();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const cpu = cpuMs() - c0;
  const frames = app.frames - f0;
  app[Symbol.dispose]();
  return { cpu: cpu / (seconds * 1000) * 100, frames: frames / seconds };
}

const tuiIdle = await tuiCpu(0, 5);
const tuiBusy = await tuiCpu(60, 10);
console.log(
  `TUI CPU, plugin tab shown at 60 frames/s: ${tuiBusy.cpu.toFixed(1)}% of one core, ${
    tuiBusy.frames.toFixed(0)
  } screen frames/s written (plugin idle: ${tuiIdle.cpu.toFixed(1)}%)`,
);
