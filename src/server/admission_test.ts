import assert from "node:assert/strict";
import { Admission } from "./admission.ts";
import { ATTACH_LIMITS } from "./attach_limits.ts";
import { readToEnd, tempListener } from "./test_util.ts";
import { frame, FrameType, SERVER_PROTOCOL } from "../wire/protocol.ts";

/** The line of the Exit a client's end reads before EOF, or null. */
async function exitOf(conn: Deno.Conn): Promise<string | null> {
  return (await readToEnd(conn)).exit?.message ?? null;
}

Deno.test("admission: newcomers past the caps are told why; one silent past helloMs too", async () => {
  using listener = tempListener();
  const limits = { ...ATTACH_LIMITS, maxConnections: 3, maxPending: 2, helloMs: 300 };
  const logged: string[] = [];
  const admission = new Admission(limits, (line) => logged.push(line));
  const clients: Deno.Conn[] = [];
  const connect = async () => {
    const { client: c, server } = await listener.connect();
    clients.push(c);
    const link = admission.admit(server);
    return { c, link };
  };
  try {
    const a = await connect();
    const b = await connect();
    const c = await connect(); // a third waiting for its hello: over maxPending
    assert.ok(a.link && b.link && c.link === null);
    assert.match((await exitOf(c.c))!, /2 connections waiting to say hello/);
    admission.helloed(a.link); // a said hello: its slot frees, its connection stays
    const d = await connect();
    assert.ok(d.link);
    assert.equal(admission.connections, 3);
    const e = await connect(); // 3 open: over maxConnections
    assert.equal(e.link, null);
    assert.match((await exitOf(e.c))!, /3 connections open/);
    // b and d never say hello: told so after helloMs; a, which did, stays open.
    const t0 = performance.now();
    assert.match((await exitOf(b.c))!, /^No hello within 0.3 s/);
    assert.match((await exitOf(d.c))!, /^No hello within 0.3 s/);
    // helloMs (0.3 s), not the default 5 s: a loaded machine may be late, not that late.
    assert.ok(performance.now() - t0 < 4500);
    assert.ok(!a.link.closed);
    assert.equal(admission.refused, 2);
    assert.equal(logged.length, 1); // one line per CROWD_LOG_MS
  } finally {
    admission[Symbol.dispose]();
    for (const c of clients) c.close();
  }
});

Deno.test("admission: a hello sent in time is taken even when the server was too busy to read it before helloMs passed", async () => {
  using listener = tempListener();
  const limits = { ...ATTACH_LIMITS, helloMs: 300 };
  const admission = new Admission(limits, () => {});
  const { client, server } = await listener.connect();
  try {
    const link = admission.admit(server)!;
    // As the server does: the hello's read is under way from the start.
    const first = link.frames().next();
    await client.write(frame(FrameType.Hello, { protocol: SERVER_PROTOCOL }));
    // The server's loop is busy past helloMs (a resize reflowing every scrollback, measured
    // at 6–13 s under load in the chaos run): the hello waits in the socket meanwhile.
    const until = performance.now() + 3 * limits.helloMs;
    while (performance.now() < until) { /* busy */ }
    const f = await first;
    admission.helloed(link);
    assert.equal(f.value?.type, FrameType.Hello);
    await new Promise((resolve) => setTimeout(resolve, 2 * limits.helloMs));
    assert.ok(!link.leaving && !link.closed, "the client was refused for a hello it had sent");
  } finally {
    admission[Symbol.dispose]();
    client.close();
  }
});
