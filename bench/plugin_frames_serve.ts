/**
 * A plugin flooding valid frames, as a user meets it: a real `lazyshell
 * serve` with fixtures/plugins/flood_frames installed as a user plugin, and
 * the server process's CPU over 5 s (2 s after ready), against the same
 * server with no plugin, in the same run.
 *
 *   deno run -A bench/plugin_frames_serve.ts
 */

import { spawnServe } from "../tools/abuse/server.ts";

const FIXTURE = new URL("../fixtures/plugins/flood_frames", import.meta.url).pathname;

async function serverCpu(plugin: boolean): Promise<number> {
  const base = Deno.makeTempDirSync({ prefix: "lzs-bench-frames-" });
  const plugins = `${base}/config/lazyshell/plugins`;
  Deno.mkdirSync(plugins, { recursive: true });
  Deno.mkdirSync(`${base}/run`, { mode: 0o700 });
  if (plugin) {
    Deno.copyFileSync(FIXTURE, `${plugins}/frames`);
    Deno.chmodSync(`${plugins}/frames`, 0o755);
  }
  Deno.writeTextFileSync(`${base}/config/lazyshell/config.yml`, "shell: /bin/sh\n");
  const child = spawnServe({
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: base,
    XDG_CONFIG_HOME: `${base}/config`,
    XDG_DATA_HOME: `${base}/data`,
    XDG_STATE_HOME: `${base}/state`,
    XDG_RUNTIME_DIR: `${base}/run`,
  });
  try {
    await child.ready;
    const cpu = () => {
      const f = Deno.readTextFileSync(`/proc/${child.pid}/stat`).split(") ")[1]!.split(" ");
      return (Number(f[11]) + Number(f[12])) * 10;
    };
    await new Promise((r) => setTimeout(r, 2000));
    const c0 = cpu();
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, 5000));
    return (cpu() - c0) / (performance.now() - t0) * 100;
  } finally {
    await child.stop();
    Deno.removeSync(base, { recursive: true });
  }
}

const load = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
console.log(`load average ${load()}`);
const none = await serverCpu(false);
const flood = await serverCpu(true);
console.log(
  `server CPU: no plugin ${none.toFixed(1)} %, flooding plugin ${flood.toFixed(1)} % of a core ` +
    `(load average after: ${load()})`,
);
