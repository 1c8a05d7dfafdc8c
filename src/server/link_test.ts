import assert from "node:assert/strict";
import { MAX_QUEUED_BYTES } from "./link.ts";
import { frame, FrameType } from "../wire/protocol.ts";
import { linkPair as pair, readToEnd as readAll } from "./test_util.ts";

Deno.test("a client that stops reading is cut off at its bound and told why once it reads", async () => {
  const { link, client } = await pair();
  const chunk = new Uint8Array(256 * 1024);
  let sent = 0;
  while (link.send(FrameType.Output, chunk)) sent++;
  assert.ok(link.leaving && !link.closed);
  // What was queued and not begun is gone: at most the frame being written and the Exit wait.
  assert.ok(link.queued < 2 * chunk.length, `${link.queued} bytes still queued`);
  assert.ok(sent * chunk.length >= MAX_QUEUED_BYTES - chunk.length);
  assert.equal(link.send(FrameType.Output, "more"), false);
  const { exit } = await readAll(client);
  assert.match(exit?.message ?? "", /did not read 16 MiB of output; the sessions go on/);
  assert.equal(exit?.reason, "error");
  await link.whenClosed;
  client.close();
});

Deno.test("refuse: a client that never reads is closed after the grace period", async () => {
  const { link, client } = await pair();
  const chunk = new Uint8Array(256 * 1024);
  for (let i = 0; i < 8; i++) link.send(FrameType.Output, chunk); // more than the socket holds
  const t0 = performance.now();
  link.refuse("Go away", 200);
  link.close(); // waits for the Exit (or the grace period)
  assert.ok(!link.closed);
  await link.whenClosed;
  const ms = performance.now() - t0;
  // Not before the grace; after it, whenever a loaded machine gets to it (not never).
  assert.ok(ms >= 150 && ms < 10_000, `closed after ${ms} ms`);
  client.close();
});

Deno.test("a first frame over its limit is refused at its header, the client told why", async () => {
  const { link, client } = await pair(1024);
  const frames = link.frames();
  const header = frame(FrameType.Hello, new Uint8Array(4096)).subarray(0, 5);
  await client.write(header);
  assert.equal((await frames.next()).done, true);
  const { exit } = await readAll(client);
  assert.match(
    exit?.message ?? "",
    /first frame \(the hello\) of 4096 bytes, over the limit of 1024/,
  );
  await link.whenClosed;
  client.close();
});
