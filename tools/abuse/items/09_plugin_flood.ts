/**
 * Item 09: a plugin writing 64 KiB chunks forever without a
 * newline was never stopped; the TUI burnt 98 % of a core showing nothing.
 * Bound: the 1 MiB line limit applies as bytes arrive — the plugin fails
 * with a clear error in its tab and its output is no longer read. Runs the
 * TUI's plugin host in this process (a real plugin process) and measures
 * this process's CPU after the failure.
 */

import { PluginHost } from "../../../src/plugin/host.ts";
import { spawnGroup } from "../../../src/plugin/procgroup_posix.ts";
import { processCpuSeconds } from "../../../src/platform/process_files.ts";
import { type AbuseItem, secs, until } from "../harness.ts";

const FIXTURE = new URL("../../../fixtures/plugins/flood_no_newline", import.meta.url).pathname;
const CPU_WINDOW_MS = 2000;

/** user + system CPU time of this process in ms. */
function cpuMs(): number {
  return processCpuSeconds("self")! * 1000;
}

export default {
  id: "09",
  title: "Plugin flooding stdout without a newline",
  server: false,
  async run(ctx) {
    const host = new PluginHost({
      entry: { id: "flood", command: [FIXTURE], builtin: false, source: FIXTURE },
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: ctx.tmp },
      width: 80,
      height: 24,
      spawn: spawnGroup,
    });
    const start = performance.now();
    try {
      host.start();
      const failed = await until(() => host.state.phase === "failed", 30_000);
      const failedMs = performance.now() - start;
      if (!failed) return { ok: false, bound: `still ${host.state.phase} after 30 s` };
      const cpu0 = cpuMs();
      await new Promise((resolve) => setTimeout(resolve, CPU_WINDOW_MS));
      const cpu = (cpuMs() - cpu0) / CPU_WINDOW_MS * 100;
      const stopped = host.state.exit !== null;
      return {
        ok: stopped && cpu < 20,
        bound: `tab failed after ${secs(failedMs)}: "${host.state.error}"; ` +
          `CPU over the next ${secs(CPU_WINDOW_MS)}: ${cpu.toFixed(0)} % of a core; ` +
          `plugin ${stopped ? "stopped" : "STILL RUNNING"}`,
        refusedMs: failedMs,
      };
    } finally {
      await host.close();
    }
  },
} satisfies AbuseItem;
