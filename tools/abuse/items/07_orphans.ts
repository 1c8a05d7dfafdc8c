/**
 * Item 7: orphans. Sessions start jobs that outlive a SIGHUP (`trap '' HUP`,
 * `nohup`, job control's own process groups); lazyshell serve is ended by
 * SIGTERM, SIGINT and SIGHUP in turn. Bound: 0 of those processes left, in
 * bounded time. Leftovers of a broken build are killed after counting.
 */

import { type AbuseItem, result } from "../item.ts";
import { startServe } from "../server.ts";
import { processesWith, waitForProcesses } from "../../../src/session/test_util.ts";

const item: AbuseItem = {
  id: "07",
  server: false,
  title: "orphans: jobs that ignore SIGHUP outlive lazyshell",
  async run(ctx) {
    const results: string[] = [];
    let left = 0;
    for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
      await using server = await startServe();
      const tag = `${Math.floor(Math.random() * 1e6)}`;
      await server.call("new", {
        name: "trap",
        command: `trap '' HUP; sleep 71${tag} & sleep 72${tag}`,
      });
      await server.call("new", { name: "jobs", command: "bash --norc --noprofile -i" });
      await server.call("send", {
        target: "jobs",
        text: `nohup sleep 73${tag} >/dev/null 2>&1 & sleep 74${tag} & disown -a`,
        enter: true,
      });
      await waitForProcesses(tag, 4);
      const t0 = performance.now();
      await server.stop(signal);
      const ms = performance.now() - t0;
      const survivors = processesWith(tag);
      for (const p of survivors) Deno.kill(p.pid, "SIGKILL");
      left += survivors.length;
      results.push(`${signal}: ${survivors.length} left, exit in ${(ms / 1000).toFixed(1)} s`);
      ctx.log?.(results.at(-1)!);
    }
    return result(left === 0, `orphans: ${results.join("; ")} (bound: 0 left)`);
  },
};

export default item;
