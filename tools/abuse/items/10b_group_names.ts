/**
 * Item 10b: group names accepted control characters and `ctl
 * list`/`group` printed them raw (an ESC, a BEL, a CR reached the
 * terminal). Bound: names with control characters are refused, and ctl
 * never prints one raw.
 */

import type { AbuseItem } from "../harness.ts";

// deno-lint-ignore no-control-regex -- what must never reach the terminal
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

export default {
  id: "10b",
  title: "Group and session names with control characters",
  async run(ctx) {
    const evil = "g\x1b]0;pwned\x07\r";
    const created = await ctx.ctl("new", "--name", "s", "--command", "sleep 600", "--group", evil);
    await ctx.call("new", { name: "t", command: "sleep 600" });
    const grouped = await ctx.ctl("group", "t", "x\u009b31m");
    const renamed = await ctx.ctl("rename", "t", "bell\x07");
    const listed = await ctx.ctl("list");
    const outputs = [created, grouped, renamed, listed].map((r) => r.stdout + r.stderr);
    const raw = outputs.filter((o) => RAW.test(o)).length;
    const ok = created.code === 1 && grouped.code === 1 && renamed.code === 1 && raw === 0;
    return {
      ok,
      bound: `new/group/rename refused (rc ${created.code}/${grouped.code}/${renamed.code}), ` +
        `${raw} outputs with a raw control character: "${created.stderr.trim()}"`,
    };
  },
} satisfies AbuseItem;
