/**
 * Item 4: 16 sessions each print 30 MB at once (`cat` of a text file, the
 * cheapest writer there is) while a client runs `ctl list` every 50 ms.
 * Bound: `ctl list` p99 ≤ 250 ms during the flood. Also printed: how long
 * the flood took (the flood readers yield, they must not stop).
 */

import { type AbuseItem, result } from "../item.ts";
import { MB, percentiles, sampleList, startServe } from "../server.ts";

const SESSIONS = Number(Deno.env.get("ABUSE_FLOOD_SESSIONS") ?? "16");
const BYTES = Number(Deno.env.get("ABUSE_FLOOD_MB") ?? "30") * MB;

const item: AbuseItem = {
  id: "04",
  server: false,
  title: `stalls: ${SESSIONS} sessions printing ${BYTES / MB} MB at once`,
  async run(ctx) {
    await using server = await startServe();
    const file = `${server.base}/flood.txt`;
    const line = `${"0123456789abcdefghijklmnopqrstuvwxyz".repeat(3)} flood\n`;
    Deno.writeTextFileSync(file, line.repeat(Math.ceil(BYTES / line.length)));
    const done = `${server.base}/done`;
    Deno.mkdirSync(done);
    const t0 = performance.now();
    for (let i = 0; i < SESSIONS; i++) {
      await server.call("new", {
        name: `flood-${i}`,
        command: `cat ${file}; touch ${done}/${i}; exec sleep 600`,
      });
    }
    const finished = () => [...Deno.readDirSync(done)].length;
    const until = performance.now() + 300_000;
    const { samples, failures } = await sampleList(
      server,
      () => finished() < SESSIONS && performance.now() < until,
    );
    const floodS = (performance.now() - t0) / 1000;
    const { p50, p99, max } = percentiles(samples);
    const rate = (SESSIONS * BYTES) / MB / floodS;
    ctx.log?.(
      `ctl list ×${samples.length}: p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, ` +
        `max ${max.toFixed(0)} ms; flood ${floodS.toFixed(1)} s (${rate.toFixed(1)} MB/s)`,
    );
    return result(
      failures === 0 && p99 <= 250 && finished() === SESSIONS,
      `flood stalls: ctl list p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, max ` +
        `${max.toFixed(0)} ms while ${SESSIONS}×${BYTES / MB} MB flooded (${
          floodS.toFixed(1)
        } s, ` +
        `${rate.toFixed(1)} MB/s)${failures ? `, ${failures} failed` : ""} (bound: p99 ≤ 250 ms)`,
    );
  },
};

export default item;
