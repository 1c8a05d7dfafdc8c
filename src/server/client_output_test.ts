import assert from "node:assert/strict";
import { ATTACH_LIMITS } from "./attach_limits.ts";
import { ClientOutput, dropOverflow } from "./client_output.ts";
import { Link } from "./link.ts";
import { readToEnd, tempListener } from "./test_util.ts";

const MiB = 1024 * 1024;

/** `n` relayed clients over real sockets, none reading, bound together at `max` bytes. */
async function clients(n: number, max: number) {
  using listener = tempListener();
  const limits = { ...ATTACH_LIMITS, maxQueuedTotal: max };
  const all = new Map<string, { output: ClientOutput; peer: Deno.Conn; link: Link }>();
  const logged: string[] = [];
  for (let i = 0; i < n; i++) {
    const { client: peer, server } = await listener.connect();
    const link = new Link(server);
    const output = new ClientOutput(link, null, {
      log: (line) => logged.push(`c${i}: ${line}`),
      written: () => dropOverflow(all, limits),
      stalledMs: limits.stalledMs,
    });
    all.set(`c${i}`, { output, peer, link });
  }
  return { all, logged };
}

async function exitOf(conn: Deno.Conn): Promise<string | null> {
  return (await readToEnd(conn)).exit?.message ?? null;
}

Deno.test("over the bound for all clients, the one holding the most is dropped, told why", async () => {
  const { all, logged } = await clients(3, 4 * MiB);
  const chunk = new Uint8Array(256 * 1024);
  const [a, b, c] = [...all.values()];
  // a takes 2 MiB more than the socket holds, b 1 MiB, c a little: then c tips the total over.
  for (let i = 0; i < 10; i++) a!.output.write(chunk);
  for (let i = 0; i < 6; i++) b!.output.write(chunk);
  for (let i = 0; i < 24 && !a!.output.gone; i++) c!.output.write(chunk.subarray(0, 65536));
  assert.ok(a!.output.gone, "the largest was not dropped");
  assert.ok(!b!.output.gone && !c!.output.gone);
  assert.equal(a!.output.queued, 0);
  assert.equal(logged.length, 1);
  assert.match(logged[0]!, /^c0: Disconnected: this terminal did not read .* while 4 MiB waited/);
  assert.match((await exitOf(a!.peer))!, /the most of any client while 4 MiB waited/);
  for (const { link, peer } of all.values()) {
    link[Symbol.dispose]();
    peer.close();
  }
});

Deno.test("one client past its own bound is dropped, told why; nothing more is written to it", async () => {
  const { all, logged } = await clients(1, 1024 * MiB);
  const { output, peer, link } = all.get("c0")!;
  const chunk = new Uint8Array(MiB);
  for (let i = 0; i < 20 && !output.gone; i++) output.write(chunk);
  assert.ok(output.gone);
  output.write(chunk);
  assert.ok(link.queued < 2 * MiB, `${link.queued} bytes still queued`);
  assert.deepEqual(logged, [
    "c0: Disconnected: this terminal did not read 16 MiB of output; the sessions go on " +
    "(run lazyshell to attach again)",
  ]);
  assert.match((await exitOf(peer))!, /did not read 16 MiB/);
  link[Symbol.dispose]();
  peer.close();
});
