/**
 * Item 03: 256 idle connections locked every `ctl list` out
 * (`Broken pipe`, rc 1); a `wait` whose client went away held its
 * connection until its own timeout; 256 pending waits then locked everyone
 * out for as long as they waited. Bounds: the longest idle connection makes
 * room for a newcomer; pending waits have their own bound (64: past it a
 * wait is answered `Too many pending waits` at once, so its connection is
 * idle and can make room), and `ctl list` gets in meanwhile; abandoned waits
 * are freed at once.
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
      // 256 connections each asking for a wait: past the bound, answered at once.
      let waits = 0;
      let refused = 0;
      const pending: Deno.UnixConn[] = [];
      let refusedMs: number | undefined;
      let reason = "";
      for (let i = 0; i < WAITS; i++) {
        const t0 = performance.now();
        const c = await Deno.connect({ transport: "unix", path });
        open.push(c);
        await c.write(wait).catch(() => {});
        const reply = await answered(c);
        if (reply === null) pending.push(c);
        else {
          refused++;
          refusedMs ??= performance.now() - t0;
          reason ||= reply;
        }
      }
      // A refusal slower than 100 ms under load is still a refusal: look again.
      for (const c of pending) {
        const late = await answered(c, 500);
        if (late === null) waits++;
        else {
          refused++;
          reason ||= late;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 1500)); // the refused ones are idle now
      const busy = await ctx.ctl("list");
      const t1 = performance.now();
      closeAll();
      const freed = await until(() => ctx.call("list").then((r) => r.ok, () => false), 10_000);
      const freedMs = performance.now() - t1;
      const bounded = /Too many pending waits \(64\)/.test(reason) && waits <= 64;
      return {
        ok: bounded && busy.code === 0 && freed,
        bound: `${IDLE} idle: ctl list rc ${idle.code}; ${WAITS} waits asked: ${waits} pending, ` +
          `${refused} refused ("${reason.trim()}"); ctl list meanwhile rc ${busy.code}; ` +
          `their clients gone: ${freed ? `freed in ${secs(freedMs)}` : "NOT freed"}`,
        refusedMs,
      };
    } finally {
      closeAll();
    }
  },
} satisfies AbuseItem;

/** What the server wrote to `conn` within `ms` (a refusal), or null (a wait says nothing for long). */
async function answered(conn: Deno.UnixConn, ms = 100): Promise<string | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const quiet = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  const buf = new Uint8Array(4096);
  const read = conn.read(buf).then(
    (n) => (n === null ? "closed" : new TextDecoder().decode(buf.subarray(0, n))),
    () => "closed",
  );
  try {
    return await Promise.race([read, quiet]);
  } finally {
    clearTimeout(timer);
  }
}
