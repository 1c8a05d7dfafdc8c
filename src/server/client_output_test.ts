import assert from "node:assert/strict";
import { ATTACH_LIMITS } from "./attach_limits.ts";
import { ACK_WINDOW, ClientOutput, dropOverflow } from "./client_output.ts";
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

/** Writes until the socket's buffer is full and a frame waits in the server's queue. */
async function fill(output: ClientOutput, link: Link): Promise<void> {
  for (let i = 0; i < 64; i++) {
    output.write(new Uint8Array(256 * 1024));
    await new Promise((r) => setTimeout(r, 20));
    if (link.queued > 0) return;
  }
  throw new Error("the socket took 16 MiB");
}

Deno.test("behind while a frame waits in the queue; drained() once it is written", async () => {
  const { all } = await clients(1, 1024 * MiB);
  const { output, peer, link } = all.get("c0")!;
  // The socket's buffer fills, then a frame waits in the server's queue: the next is not drawn.
  await fill(output, link);
  assert.ok(output.behind, "never behind");
  let drained = false;
  const done = output.drained().then(() => (drained = true));
  await new Promise((r) => setTimeout(r, 50));
  assert.ok(!drained, "drained while nothing was read");
  const reading = readToEnd(peer);
  await done;
  assert.ok(!output.behind);
  link[Symbol.dispose]();
  await reading;
  peer.close();
});

Deno.test("a client that acknowledges: behind past ACK_WINDOW unacknowledged, caught up by its Ack", async () => {
  using listener = tempListener();
  const { client: peer, server } = await listener.connect();
  const link = new Link(server);
  const hooks = { log: () => {}, written: () => {}, stalledMs: ATTACH_LIMITS.stalledMs };
  const output = new ClientOutput(link, null, hooks, true);
  const reading = readToEnd(peer);
  output.write(new Uint8Array(ACK_WINDOW / 2));
  await link.flush();
  assert.ok(!output.behind, "behind within the window");
  output.write(new Uint8Array(ACK_WINDOW + 1));
  await link.flush();
  // Written to the socket and read by the peer: still behind until its Ack says it was drawn.
  assert.ok(output.behind, "not behind past the window");
  let drained = false;
  const done = output.drained().then(() => (drained = true));
  output.acked(1);
  await new Promise((r) => setTimeout(r, 20));
  assert.ok(!drained && output.behind, "the first frame's Ack is not enough");
  output.acked(2);
  await done;
  assert.ok(!output.behind);
  // An Ack past what was sent changes nothing.
  output.acked(99);
  assert.ok(!output.behind);
  link[Symbol.dispose]();
  await reading;
  peer.close();
});

Deno.test("a client that reads nothing of what waits for stalledMs is dropped, told why", async () => {
  using listener = tempListener();
  const { client: peer, server } = await listener.connect();
  const link = new Link(server);
  const logged: string[] = [];
  const output = new ClientOutput(link, null, {
    log: (line) => logged.push(line),
    written: () => {},
    stalledMs: 200,
  });
  await fill(output, link);
  assert.ok(output.behind);
  await new Promise((r) => setTimeout(r, 400));
  assert.ok(output.gone, "not dropped");
  assert.deepEqual(logged, [
    "Disconnected: this terminal did not read the output waiting for it within 0.2 s; the " +
    "sessions go on (run lazyshell to attach again)",
  ]);
  assert.match((await exitOf(peer))!, /within 0.2 s/);
  link[Symbol.dispose]();
  peer.close();
});
