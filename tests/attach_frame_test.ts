/**
 * The attach socket's frame limit before the hello (docs/architecture.md,
 * "Server and clients", Bounds), on a real server process and real
 * sockets: a probe's 4 MiB header, then all but one byte of it, held ~5 MB
 * per connection (100 connections: 631 MB). The hello is small: a first
 * frame over `maxHelloFrame` is refused at its header, told why; after the
 * hello, a paste of 1 MiB still goes through. Prints the bound that held.
 */

import assert from "node:assert/strict";
import { ATTACH_LIMITS } from "../src/server/attach_limits.ts";
import { FrameType, MAX_FRAME } from "../src/wire/protocol.ts";
import { attachLab, hello, listMs, RawClient, sleep } from "./attach_lab.ts";

const CONNECTIONS = 100;
/** At once: well under the pending cap, so the frame limit is what is tested. */
const BATCH = 10;

/** A frame header announcing `length` bytes of hello. */
function header(length: number): Uint8Array {
  const out = new Uint8Array(5);
  out[0] = FrameType.Hello;
  new DataView(out.buffer).setUint32(1, length);
  return out;
}

Deno.test("pre-hello frame limit: a huge first frame is refused at its header; a paste after the hello is taken", async () => {
  await using lab = await attachLab();
  const rss0 = lab.rssMb();
  let peak = rss0;
  const sampler = setInterval(() => (peak = Math.max(peak, lab.rssMb())), 50);
  const body = new Uint8Array(MAX_FRAME - 1).fill(0x61);
  const open: RawClient[] = [];
  try {
    const t0 = performance.now();
    const one = await RawClient.open(lab.socket);
    open.push(one);
    await one.write(header(MAX_FRAME));
    // Generous bounds: each resolves as soon as the server refuses; a loaded machine is slow.
    const first = await one.endWithin(30_000);
    const refusedMs = performance.now() - t0;
    // The probe: a 4 MiB header and all but one byte, connection after connection, left open.
    let refused = 0;
    let stillOpen = 0;
    for (let i = 0; i < CONNECTIONS; i += BATCH) {
      const batch = await Promise.all(
        Array.from({ length: BATCH }, () => RawClient.open(lab.socket)),
      );
      open.push(...batch);
      await Promise.all(
        batch.map(async (c) => (await c.write(header(MAX_FRAME))) && await c.write(body)),
      );
      const ends = await Promise.all(batch.map((c) => c.endWithin(15_000)));
      refused += ends.filter((e) => e?.exit?.message.includes("over the limit")).length;
      stillOpen += ends.filter((e) => e === null).length;
    }
    await sleep(500);
    const rssHeld = lab.rssMb();
    const probePeak = peak;
    const list = await listMs(lab);
    // Once the hello is in, frames may be as long as MAX_FRAME: a 1 MiB paste.
    using client = await RawClient.open(lab.socket);
    await client.write(hello());
    const paste = new Uint8Array(1024 * 1024).fill(0x20);
    const pasted = await client.write(
      new Uint8Array([FrameType.Input, 0, 16, 0, 0, ...paste]),
    );
    const afterPaste = await client.endWithin(1000);
    clearInterval(sampler);
    console.log(
      `pre-hello frame limit: a first frame announcing ${MAX_FRAME} bytes refused at its ` +
        `header in ${refusedMs.toFixed(0)} ms ("${first?.exit?.message}"); ${CONNECTIONS} ` +
        `connections × a 4 MiB header and ${body.length} bytes: ${refused} refused, ` +
        `${stillOpen} still open; RSS ${rss0.toFixed(0)} → ${rssHeld.toFixed(0)} MB (peak ` +
        `${probePeak.toFixed(0)}); a 1 MiB paste after the hello ` +
        `${pasted && afterPaste === null ? "taken" : "REFUSED"}; ctl list ` +
        `${list?.toFixed(0) ?? "FAILED"} ms`,
    );
    assert.match(first?.exit?.message ?? "", /first frame \(the hello\) of 4194304 bytes/);
    assert.match(first?.exit?.message ?? "", new RegExp(`limit of ${ATTACH_LIMITS.maxHelloFrame}`));
    assert.equal(refused, CONNECTIONS);
    assert.ok(probePeak - rss0 < 64, `RSS ${rss0.toFixed(0)} → peak ${probePeak.toFixed(0)} MB`);
    assert.ok(pasted && afterPaste === null, "the paste after the hello was refused");
    assert.notEqual(list, null);
  } finally {
    clearInterval(sampler);
    for (const c of open) c.close();
  }
});
