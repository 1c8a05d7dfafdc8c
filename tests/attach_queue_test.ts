/**
 * Clients that never read (docs/architecture.md, "Server and clients",
 * Bounds), on a real server process and real sockets: 63 clients that never
 * read (64 in the probe) while 4 sessions flood took a probe's server from
 * 117 to 519 MB and climbing, each client bounded (16 MiB) but not all of
 * them. Then the clients holding the most were dropped past 64 MiB for all;
 * now their frames coalesce (about one frame waits for each, the server
 * skips drawing for them) and each is dropped once what waits for it was
 * not read within the stall bound, told why; a client that reads keeps
 * drawing and `ctl list` keeps answering. The bound for all clients is
 * tested in src/server/client_output_test.ts.
 */

import assert from "node:assert/strict";
import { ATTACH_LIMITS } from "../src/server/attach_limits.ts";
import { attachLab, hello, listMs, MB, RawClient, sleep } from "./attach_lab.ts";

/** Clients that never read (the probe's 64: ATTACH_QUEUE_CLIENTS=63, beside the reader). */
const STUCK = Number(Deno.env.get("ATTACH_QUEUE_CLIENTS") ?? "16");
const SESSIONS = 4;
/** The flood runs this long at least, and until every stuck client was dropped (at most MAX_SECONDS). */
const SECONDS = Number(Deno.env.get("ATTACH_QUEUE_SECONDS") ?? "10");
const MAX_SECONDS = Math.max(SECONDS, 180);
/** Each client's terminal: big frames, so what waits for them grows fast. */
const SIZE = { cols: 300, rows: 80 };
/** Output that changes every cell of the pane: every frame redraws it. */
const FLOOD = `base64 -w ${SIZE.cols - 10} /dev/urandom`;

Deno.test("clients that never read hold about a frame each and are dropped at the stall bound, told why; the reader and ctl go on", async () => {
  await using lab = await attachLab();
  for (let i = 0; i < SESSIONS; i++) {
    await lab.server.call("new", { name: `flood-${i}`, command: FLOOD });
  }
  await sleep(2000);
  const rss0 = lab.rssMb();
  using reader = await RawClient.open(lab.socket);
  await reader.write(hello(SIZE));
  const reading = reader.read();
  const stuck: RawClient[] = [];
  try {
    for (let i = 0; i < STUCK; i++) {
      const c = await RawClient.open(lab.socket);
      stuck.push(c);
      await c.write(hello(SIZE));
    }
    const log = `${lab.server.env.XDG_DATA_HOME}/lazyshell/lazyshell.log`;
    const logText = () => {
      try {
        return Deno.readTextFileSync(log);
      } catch {
        return "";
      }
    };
    const dropped = () => logText().match(/: Disconnected: /g)?.length ?? 0;
    let peak = rss0;
    const lists: number[] = [];
    let failed = 0;
    let readerLast = reader.output;
    let readerStalls = 0;
    const t0 = performance.now();
    const going = () => {
      const s = (performance.now() - t0) / 1000;
      return (s < SECONDS || (dropped() < STUCK && s < MAX_SECONDS)) && lab.rssMb() < 2000;
    };
    while (going()) {
      peak = Math.max(peak, lab.rssMb());
      const ms = await listMs(lab);
      if (ms === null) failed++;
      else lists.push(ms);
      await sleep(250);
      if (reader.output === readerLast) readerStalls++;
      readerLast = reader.output;
    }
    const seconds = (performance.now() - t0) / 1000;
    const drops = dropped();
    const why = /: (Disconnected: .*)$/m.exec(logText())?.[1];
    // Those still attached read from now on; the dropped ones find their Exit if it was sent
    // within its grace period (a client that never reads cannot be told).
    const ends = await Promise.all(stuck.map((c) => c.endWithin(2000)));
    const told = ends.filter((e) => e?.exit?.message.includes("did not read")).length;
    const stalled = ATTACH_LIMITS.stalledMs / 1000;
    const readerAlive = await Promise.race([reading.then(() => false), sleep(0).then(() => true)]);
    lists.sort((a, b) => a - b);
    const p50 = lists[Math.floor(lists.length / 2)] ?? NaN;
    const max = lists.at(-1) ?? NaN;
    console.log(
      `stall bound (${stalled} s): ${STUCK} clients ` +
        `that never read, ${SESSIONS} sessions flooding for ${seconds.toFixed(0)} s: ${drops} ` +
        `dropped ("${why}"), ${told} read that line once they read; the reading client ` +
        `${readerAlive ? "kept drawing" : "WAS DROPPED"} (${(reader.output / MB).toFixed(1)} MB, ` +
        `${readerStalls} quiet 250 ms spells); ctl list p50 ${p50.toFixed(0)} ms, max ` +
        `${max.toFixed(0)} ms, ${failed} of 10 s timed out; RSS ${rss0.toFixed(0)} → peak ` +
        `${peak.toFixed(0)} MB`,
    );
    assert.equal(drops, STUCK, "not every stuck client was dropped");
    assert.match(
      why ?? "",
      new RegExp(`did not read the output waiting for it within ${stalled} s`),
    );
    assert.ok(readerAlive, "the reading client was dropped");
    // `ctl list` kept answering (a loaded machine may time one out: 10 s).
    assert.ok(lists.length > failed, `ctl list: ${lists.length} answered, ${failed} timed out`);
    // About a frame waits for each client: what the server drew meanwhile, nowhere near 64 MiB.
    const bound = 96;
    assert.ok(peak - rss0 < bound, `RSS ${rss0.toFixed(0)} → ${peak.toFixed(0)} MB`);
    assert.ok(lab.alive());
  } finally {
    for (const c of stuck) c.close();
  }
});
