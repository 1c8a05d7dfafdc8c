import assert from "node:assert/strict";
import { Admission } from "./admission.ts";
import { ATTACH_LIMITS } from "./attach_limits.ts";
import type { Link } from "./link.ts";
import { FrameReader, FrameType, parseExit } from "./protocol.ts";

/** The Exit a client end reads before EOF, or null. */
async function exitOf(conn: Deno.Conn): Promise<string | null> {
  const reader = new FrameReader();
  const buf = new Uint8Array(4096);
  try {
    for (let n = await conn.read(buf); n !== null; n = await conn.read(buf)) {
      for (const f of reader.push(buf.subarray(0, n))) {
        if (f.type === FrameType.Exit) return parseExit(f.payload).message;
      }
    }
  } catch { /* reset */ }
  return null;
}

Deno.test("admission: newcomers past the caps are told why; one silent past helloMs too", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lzs-admit-" });
  const path = `${dir}/s.sock`;
  const listener = Deno.listen({ transport: "unix", path });
  const limits = { ...ATTACH_LIMITS, maxConnections: 3, maxPending: 2, helloMs: 300 };
  const logged: string[] = [];
  const admission = new Admission(limits, (line) => logged.push(line));
  const clients: Deno.Conn[] = [];
  const admitted: (Link | null)[] = [];
  const connect = async () => {
    const c = await Deno.connect({ transport: "unix", path });
    clients.push(c);
    const link = admission.admit(await listener.accept());
    admitted.push(link);
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
    assert.ok(performance.now() - t0 < 2000);
    assert.ok(!a.link.closed);
    assert.equal(admission.refused, 2);
    assert.equal(logged.length, 1); // one line per CROWD_LOG_MS
  } finally {
    admission[Symbol.dispose]();
    for (const c of clients) c.close();
    listener.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
