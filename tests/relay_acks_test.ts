/**
 * A relaying client (`lazyshell -H`, or LAZYSHELL_CLIENT_RELAY=1)
 * acknowledges its Output frames in bytes (src/wire/protocol.ts
 * ACK_EVERY_BYTES), not one Ack a frame: over ssh with no terminal (Nagle on,
 * docs/remote.md) an Ack written just before a keystroke held that keystroke
 * ~40 ms, and every echo waited for it. A proxy between the real client and
 * the real server counts the client's frames while keys echo one by one.
 */

import assert from "node:assert/strict";
import { FrameReader, FrameType } from "../src/wire/protocol.ts";
import { screenText, waitFor, waitForText } from "../src/session/test_util.ts";
import { lab as e2eLab, RUN_MAIN } from "./e2e_lab.ts";

const WAIT = 30_000;

/** Passes one connection through to `target`, counting the frames the client sends by type. */
async function pipe(
  client: Deno.UnixConn,
  target: string,
  sent: Map<number, number>,
  conns: Deno.UnixConn[],
) {
  const server = await Deno.connect({ transport: "unix", path: target });
  conns.push(client, server);
  const reader = new FrameReader();
  const up = (async () => {
    const buf = new Uint8Array(64 * 1024);
    for (let n; (n = await client.read(buf)) !== null;) {
      const bytes = buf.subarray(0, n);
      for (const f of reader.push(bytes)) sent.set(f.type, (sent.get(f.type) ?? 0) + 1);
      for (let w = 0; w < n;) w += await server.write(bytes.subarray(w));
    }
  })();
  const down = (async () => {
    const buf = new Uint8Array(64 * 1024);
    for (let n; (n = await server.read(buf)) !== null;) {
      for (let w = 0; w < n;) w += await client.write(buf.subarray(w, n));
    }
  })();
  await Promise.race([up, down]).catch(() => {});
  for (const c of [client, server]) {
    try {
      c.close();
    } catch { /* closed */ }
  }
  await Promise.allSettled([up, down]);
}

Deno.test({
  name: "a relaying client sends no Ack while small echoes arrive, and one past ACK_EVERY_BYTES",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await using l = e2eLab("lazyshell-relay-acks-");
    // A first client starts the server, then detaches.
    const first = l.client(100, 30);
    await waitForText(first, "No sessions", WAIT);
    first.write("\x1dd");
    await first.exited;

    const dir = `${l.env.XDG_RUNTIME_DIR}/lazyshell`;
    const sent = new Map<number, number>();
    const listener = Deno.listen({ transport: "unix", path: `${dir}/server-proxy.sock` });
    const pipes: Promise<void>[] = [];
    const conns: Deno.UnixConn[] = [];
    const accepting = (async () => {
      for await (const conn of listener) {
        pipes.push(pipe(conn, `${dir}/server-default.sock`, sent, conns));
      }
    })();
    try {
      const relay = l.store.create({
        command: `LAZYSHELL_CLIENT_RELAY=1 exec ${RUN_MAIN} -L proxy`,
        cols: 100,
        rows: 30,
      });
      await waitForText(relay, "No sessions", WAIT);
      relay.write("n"); // a shell, which takes the keys
      // The inner shell's prompt on a pane row (as tests/server_tty_test.ts reads it).
      const prompt = () => screenText(relay).split("\n").some((l) => /│\S*[$#]\s*$/.test(l));
      await waitFor(relay, prompt, WAIT, "a shell prompt");
      const acksBefore = sent.get(FrameType.Ack) ?? 0;
      const line = "abcdefghijklmnop";
      for (let i = 1; i <= line.length; i++) {
        relay.write(line[i - 1]!);
        await waitFor(
          relay,
          () => screenText(relay).includes(line.slice(0, i)),
          WAIT,
          line.slice(0, i),
        );
      }
      // 16 echoes of a few hundred bytes each: under ACK_EVERY_BYTES, no Ack (one a frame before).
      const acksTyping = (sent.get(FrameType.Ack) ?? 0) - acksBefore;
      assert.ok(acksTyping <= 1, `${acksTyping} Acks while 16 keys echoed`);
      // Ten screenfuls, each a frame of its own: past ACK_EVERY_BYTES, the client acknowledges.
      relay.write("\x15for i in 1 2 3 4 5 6 7 8 9 10; do seq $i 9 3000; sleep 0.3; done\r");
      await waitFor(
        relay,
        () => (sent.get(FrameType.Ack) ?? 0) > acksBefore + acksTyping,
        WAIT,
        "an Ack after ten screenfuls",
      );
      relay.write("\x1dd");
      await relay.exited;
    } finally {
      listener.close();
      await accepting.catch(() => {});
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
      await Promise.allSettled(pipes);
    }
  },
});
