/**
 * Item 03: 256 idle connections locked every `ctl list` out
 * (`Broken pipe`, rc 1); a `wait` whose client went away held its
 * connection until its own timeout. Bounds: the longest idle connection
 * makes room for a newcomer; when all are busy the newcomer is refused in
 * one line (ctl rc 2); abandoned waits are freed at once.
 */

import { type AbuseItem, secs, until } from "../harness.ts";

const IDLE = 300;
const WAITS = 256;

export default {
  id: "03",
  title: "Connection lockout: 300 idle, then 256 abandoned waits",
  async run(ctx) {
    const path = ctx.server!.control;
    const open: Deno.UnixConn[] = [];
    const closeAll = () => {
      for (const c of open.splice(0)) {
        try {
          c.close();
        } catch { /* closed by the server */ }
      }
    };
    try {
      for (let i = 0; i < IDLE; i++) open.push(await Deno.connect({ transport: "unix", path }));
      // Idle means idle for a while: a connection younger than evictIdleMs (1 s) still gets to
      // send its request, so on a fast machine 300 fresh connections refuse a newcomer.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const idle = await ctx.ctl("list");
      if (idle.code !== 0) {
        return { ok: false, bound: `ctl list with ${IDLE} idle connections: rc ${idle.code}` };
      }
      closeAll();

      await ctx.call("new", { name: "s", command: "sleep 600" });
      const wait = new TextEncoder().encode(
        '{"id":1,"verb":"wait","args":{"target":"s","state":"done","timeout":600}}\n',
      );
      // Fill every slot with a wait (the harness's own `ctl list` probes come and go, so keep
      // filling until a newcomer of ours is the one refused).
      let waits = 0;
      let refusedMs: number | undefined;
      for (let i = 0; i < 2 * WAITS; i++) {
        const t0 = performance.now();
        const c = await Deno.connect({ transport: "unix", path });
        open.push(c);
        await c.write(wait).catch(() => {});
        if (await answered(c)) {
          refusedMs = performance.now() - t0;
          break;
        }
        waits++;
      }
      let busy = await ctx.ctl("list");
      for (let i = 0; i < 5 && busy.code === 0; i++) busy = await ctx.ctl("list");
      const line = busy.stderr.trimEnd();
      const refusedPolitely = busy.code === 2 && !line.includes("\n") &&
        /Too many control connections/.test(line);
      const t1 = performance.now();
      closeAll();
      const freed = await until(() => ctx.call("list").then((r) => r.ok, () => false), 10_000);
      const freedMs = performance.now() - t1;
      return {
        ok: refusedPolitely && freed,
        bound:
          `${IDLE} idle: ctl list rc ${idle.code}; ${waits} busy waits: newcomer rc ${busy.code} ` +
          `"${line}"; their clients gone: ${freed ? `freed in ${secs(freedMs)}` : "NOT freed"}`,
        refusedMs,
      };
    } finally {
      closeAll();
    }
  },
} satisfies AbuseItem;

/** Whether the server wrote to `conn` within 100 ms (a refusal; a wait says nothing for long). */
async function answered(conn: Deno.UnixConn): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const quiet = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), 100)));
  const read = conn.read(new Uint8Array(4096)).then((n) => n !== null, () => true);
  try {
    return await Promise.race([read, quiet]);
  } finally {
    clearTimeout(timer);
  }
}
