/**
 * Item 2: reads that cost more than they return. 100 concurrent
 * `read --tail 5000` of a 5000-line session, then 50 concurrent
 * `read --tail 200` with one 600,000-character wrapped line on screen.
 * Bound: peak RSS during the reads ≤ 2× the RSS before them.
 */

import { type AbuseItem, result } from "../item.ts";
import { MB, type Server, startServe } from "../server.ts";
import { resetPeakMemory } from "../../../src/platform/process_files.ts";

async function waitFor(server: Server, target: string, text: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const r = await server.call("read", { target, tail: 2 });
    if (r.ok && (r.result as { lines: string[] }).lines.join("\n").includes(text)) return;
    if (Date.now() > deadline) throw new Error(`${target} never printed ${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Peak RSS while `work` runs, from VmHWM reset before it (Linux clear_refs 5). */
async function peakDuring(server: Server, work: () => Promise<unknown>): Promise<number> {
  resetPeakMemory(server.pid);
  await work();
  return server.peakRss();
}

async function burst(server: Server, target: string, tail: number, clients: number) {
  const replies = await Promise.all(
    Array.from({ length: clients }, () => server.call("read", { target, tail }, 120_000)),
  );
  const failed = replies.filter((r) => !r.ok).length;
  const sizes = replies.map((r) => JSON.stringify(r).length);
  return { failed, biggest: Math.max(...sizes) };
}

const item: AbuseItem = {
  id: "02",
  server: false,
  title: "memory amplification: concurrent read --tail of a long scrollback and a huge line",
  async run(ctx) {
    await using server = await startServe({ config: "default_size:\n  cols: 200\n  rows: 50\n" });
    await server.call("new", {
      name: "lines",
      command:
        "seq 1 5000 | awk '{printf \"%05d %0120d\\n\", $1, 0}'; echo end-of-lines; exec sleep 600",
    });
    await server.call("new", {
      name: "wide",
      command: "head -c 600000 /dev/zero | tr '\\0' a; echo; echo end-of-wide; exec sleep 600",
    });
    await waitFor(server, "lines", "end-of-lines");
    await waitFor(server, "wide", "end-of-wide");
    const before = server.rss();
    let lines = { failed: 0, biggest: 0 };
    const peakLines = await peakDuring(server, async () => {
      lines = await burst(server, "lines", 5000, 100);
    });
    const beforeWide = server.rss();
    let wide = { failed: 0, biggest: 0 };
    const peakWide = await peakDuring(server, async () => {
      wide = await burst(server, "wide", 200, 50);
    });
    const ratio = Math.max(peakLines / before, peakWide / beforeWide);
    const f = (n: number) => `${(n / MB).toFixed(n < 10 * MB ? 1 : 0)} MB`;
    ctx.log?.(
      `tail 5000 ×100: RSS ${f(before)} → peak ${f(peakLines)}, reply ≤ ${f(lines.biggest)}`,
    );
    ctx.log?.(
      `tail 200 ×50 (600k line): RSS ${f(beforeWide)} → peak ${f(peakWide)}, reply ≤ ${
        f(wide.biggest)
      }`,
    );
    return result(
      ratio <= 2 && lines.failed === 0 && wide.failed === 0,
      `read amplification: peak RSS ${f(peakLines)} / ${f(peakWide)} vs ${f(before)} ` +
        `before (${ratio.toFixed(2)}×, bound 2×), largest reply ${
          f(Math.max(lines.biggest, wide.biggest))
        }` +
        (lines.failed + wide.failed ? `, ${lines.failed + wide.failed} reads failed` : ""),
    );
  },
};

export default item;
