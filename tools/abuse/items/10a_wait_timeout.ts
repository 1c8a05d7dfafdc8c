/**
 * Item 10a: `ctl wait --timeout` of 2147484 s or more returned at
 * once with a false "Timed out" (setTimeout overflows past 2^31-1 ms) and
 * the CLI failed earlier, at 2147469 s, rc 2. Bound: at most 604800 s,
 * refused alike by ctl (before connecting) and by the server.
 */

import { type AbuseItem, secs } from "../harness.ts";

export default {
  id: "10a",
  title: "wait --timeout past what a timer holds",
  async run(ctx) {
    await ctx.call("new", { name: "s", command: "sleep 600" });
    const cli = await ctx.ctl("wait", "s", "--state", "done", "--timeout", "2147484");
    const wire = await ctx.call("wait", { target: "s", state: "done", timeout: 2147484 });
    // The largest accepted timeout really waits: no reply within 2 s (not an instant "Timed out").
    const longest = await ctx.call("wait", { target: "s", state: "done", timeout: 604800 }, 2000)
      .then((r) => (r.ok ? "returned ok" : `returned at once: ${r.error}`), () => "still waiting");
    const wireError = wire.ok ? "(accepted)" : wire.error;
    const ok = cli.code === 2 && cli.stderr.trim() === `lazyshell ctl: ${wireError}` &&
      longest === "still waiting";
    return {
      ok,
      bound:
        `ctl rc ${cli.code} in ${secs(cli.ms)} "${cli.stderr.trim()}"; server "${wireError}"; ` +
        `--timeout 604800: ${longest} after 2 s`,
    };
  },
} satisfies AbuseItem;
