/**
 * A plugin flooding valid frames (fixtures/plugins/flood_frames: `yes` of one
 * frame line): this process's CPU while the plugin host reads it, against a
 * bare reader of the same plugin's stdout measured in the same run, and the
 * changes the TUI is told of per second (what it would redraw).
 *
 *   deno run -A bench/plugin_frames.ts [seconds=3] [runs=3]
 */

import { PluginHost } from "../src/plugin/host.ts";
import { spawnGroup } from "../src/plugin/procgroup_posix.ts";

const FIXTURE = new URL("../fixtures/plugins/flood_frames", import.meta.url).pathname;
const ENV = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: Deno.env.get("HOME") ?? "/" };
const SECONDS = Number(Deno.args[0] ?? 3);
const RUNS = Number(Deno.args[1] ?? 3);

/** user + system CPU time of this process in ms (/proc/self/stat, 100 ticks a second). */
function cpuMs(): number {
  const fields = Deno.readTextFileSync("/proc/self/stat").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function window(): Promise<number> {
  await new Promise((r) => setTimeout(r, 500)); // warm-up
  const c0 = cpuMs();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  return (cpuMs() - c0) / (performance.now() - t0) * 100;
}

/** The same plugin's stdout read and thrown away: the floor of reading it at all. */
async function bareReader(): Promise<number> {
  const child = new Deno.Command(FIXTURE, { stdout: "piped", stdin: "null", env: ENV }).spawn();
  const reader = child.stdout.getReader();
  let stop = false;
  const loop = (async () => {
    while (!stop) if ((await reader.read()).done) break;
  })();
  const cpu = await window();
  stop = true;
  child.kill("SIGKILL");
  await reader.cancel().catch(() => {});
  await loop.catch(() => {});
  await child.status;
  return cpu;
}

async function hosted(): Promise<{ cpu: number; changes: number }> {
  let changes = 0;
  const host = new PluginHost({
    entry: { id: "frames", command: [FIXTURE], builtin: false, source: FIXTURE },
    env: ENV,
    width: 80,
    height: 24,
    spawn: spawnGroup,
    onChange: () => changes++,
  });
  host.start();
  try {
    const c0 = changes;
    const cpu = await window();
    if (host.state.phase !== "running") {
      throw new Error(`plugin ${host.state.phase}: ${host.state.error}`);
    }
    return { cpu, changes: (changes - c0) / (SECONDS + 0.5) };
  } finally {
    await host.close();
  }
}

const load = Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
console.log(`load average: ${load}; ${RUNS} runs of ${SECONDS} s`);
const rows: string[] = [];
for (let i = 0; i < RUNS; i++) {
  const bare = await bareReader();
  const h = await hosted();
  rows.push(
    `run ${i + 1}: host ${h.cpu.toFixed(1)} % of a core, bare reader ${bare.toFixed(1)} %, ` +
      `ratio ${(h.cpu / Math.max(bare, 0.1)).toFixed(2)}; changes told ${h.changes.toFixed(0)}/s`,
  );
  console.log(rows.at(-1));
}
