import assert from "node:assert/strict";
import { Link, MAX_QUEUED_BYTES } from "./link.ts";
import { type ExitMessage, frame, FrameReader, FrameType, parseExit } from "./protocol.ts";

/** A real socket pair: the server's Link and the client's raw end. */
async function pair(firstFrame?: number) {
  const dir = Deno.makeTempDirSync({ prefix: "lzs-link-" });
  const listener = Deno.listen({ transport: "unix", path: `${dir}/s.sock` });
  const client = await Deno.connect({ transport: "unix", path: `${dir}/s.sock` });
  const link = new Link(await listener.accept(), firstFrame);
  listener.close();
  Deno.removeSync(dir, { recursive: true });
  return { link, client };
}

/** Everything the client reads until EOF: Output bytes and the Exit. */
async function readAll(conn: Deno.Conn): Promise<{ output: number; exit: ExitMessage | null }> {
  const reader = new FrameReader();
  const buf = new Uint8Array(256 * 1024);
  let output = 0;
  let exit: ExitMessage | null = null;
  try {
    for (let n = await conn.read(buf); n !== null; n = await conn.read(buf)) {
      for (const f of reader.push(buf.subarray(0, n))) {
        if (f.type === FrameType.Output) output += f.payload.length;
        if (f.type === FrameType.Exit) exit = parseExit(f.payload);
      }
    }
  } catch { /* reset after the Exit */ }
  return { output, exit };
}

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
  assert.ok(ms >= 150 && ms < 2000, `closed after ${ms} ms`);
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
