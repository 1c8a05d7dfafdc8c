/**
 * Item 01: one connection pipelines `read --tail 5000` of a
 * 5000-line session and never reads the replies (was: 4.3 GB at 25 s,
 * dead at 55 s). Bound: requests in flight and reply bytes per connection;
 * the client that does not read is disconnected.
 */

import { type AbuseItem, secs, until } from "../harness.ts";

const LINES = 5000;
const BATCH = 1000;

export default {
  id: "01",
  title: "Pipelined reads never read back",
  async run(ctx) {
    await ctx.call("new", { name: "big", command: `seq 1 ${LINES}; sleep 600` });
    const printed = await until(async () => {
      const r = await ctx.call("read", { target: "big", tail: LINES });
      return r.ok && (r.result as { lines: string[] }).lines.includes(String(LINES));
    }, 30_000);
    if (!printed) return { ok: false, bound: "the session never printed its lines" };
    const conn = await Deno.connect({ transport: "unix", path: ctx.server!.control });
    const start = performance.now();
    const batch = new TextEncoder().encode(
      Array.from(
        { length: BATCH },
        (_, i) => `{"id":${i},"verb":"read","args":{"target":"big","tail":${LINES}}}\n`,
      ).join(""),
    );
    let sent = 0;
    let refusedMs: number | undefined;
    // Keep pipelining, never reading, until lazyshell hangs up (a write fails) or the deadline.
    try {
      while (!ctx.signal.aborted && performance.now() - start < 90_000) {
        let offset = 0;
        while (offset < batch.length) offset += await conn.write(batch.subarray(offset));
        sent += BATCH;
      }
    } catch {
      refusedMs = performance.now() - start;
    }
    try {
      conn.close();
    } catch { /* closed by the server */ }
    if (refusedMs === undefined) {
      return { ok: false, bound: `still connected after ${sent} requests and 90 s` };
    }
    return {
      ok: true,
      bound: `disconnected as a client that does not read, after ${secs(refusedMs)} ` +
        `and ~${sent} requests written`,
      refusedMs,
    };
  },
} satisfies AbuseItem;
