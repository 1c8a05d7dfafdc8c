/**
 * The bounds of the control socket (docs/control-api.md "Limits"), each as
 * the abuse that broke it: pipelined requests never read back, 256 idle
 * connections, waits whose client went away, a wait timeout past what a
 * timer holds, `send`s to a session that never reads, a socket that closes
 * on `ctl`. Real sockets, real PTYs.
 */

import assert from "node:assert/strict";
import { runCtl } from "../src/ctl/client.ts";
import { CONTROL_LINE_LIMIT, readLines, writeAll } from "../src/ipc/jsonl.ts";
import { delay } from "../src/util/async.ts";
import { type Instance, startInstance } from "./control_helpers.ts";

const encoder = new TextEncoder();

async function connect(path: string) {
  const conn = await Deno.connect({ transport: "unix", path });
  const lines = readLines(conn, CONTROL_LINE_LIMIT);
  return {
    conn,
    send: (text: string) => writeAll(conn, encoder.encode(text)),
    /** The next line, blank ones (liveness probes) included; null at end of stream. */
    async line(): Promise<string | null> {
      try {
        const item = await lines.next();
        return item.done || item.value.type !== "line" ? null : item.value.text;
      } catch {
        return null;
      }
    },
    close() {
      try {
        conn.close();
      } catch { /* closed */ }
    },
  };
}

async function until(
  what: string,
  ok: () => boolean | Promise<boolean>,
  ms = 30_000,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await delay(20);
  }
}

function captured() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) } };
}

async function sessionWithLines(t: Instance, n: number): Promise<number> {
  await t.ok("new", { name: "big", command: `seq 1 ${n}; sleep 60` });
  let size = 0;
  await until(`${n} lines`, async () => {
    const r = await t.ok<{ lines: string[] }>("read", { target: "big", tail: n });
    size = JSON.stringify(r).length;
    return r.lines.includes(String(n));
  }, 15_000);
  return size;
}

Deno.test("a client pipelining 1000 reads it never reads back is disconnected, holding only the bounds", async () => {
  const limits = { maxInFlight: 8, maxQueuedBytes: 256 * 1024, stallMs: 500 };
  await using t = await startInstance({ limits });
  const replySize = await sessionWithLines(t, 5000);
  const c = await connect(t.sockets.control!.path);
  const requests = Array.from(
    { length: 1000 },
    (_, i) => `{"id":${i},"verb":"read","args":{"target":"big","tail":5000}}\n`,
  ).join("");
  const writing = c.send(requests).catch(() => "closed");
  const server = t.sockets.control!;
  let peakQueued = 0;
  let peakInFlight = 0;
  await until("the connection to be closed", () => {
    const s = server.stats();
    peakQueued = Math.max(peakQueued, s.queuedBytes);
    peakInFlight = Math.max(peakInFlight, s.inFlight);
    return s.connections === 0;
  });
  assert.ok(peakInFlight <= limits.maxInFlight, `in flight ${peakInFlight}`);
  assert.ok(
    peakQueued <= limits.maxQueuedBytes + limits.maxInFlight * (replySize + 100),
    `queued ${peakQueued} bytes`,
  );
  let replies = 0;
  while ((await c.line()) !== null) replies++;
  assert.ok(replies < 1000, `only what fit was sent (${replies} replies)`);
  c.close();
  await writing;
  assert.equal((await t.call("list")).ok, true, "the server still answers");
});

Deno.test("256 idle connections lock no one out: the longest idle one is closed with a notice", async () => {
  await using t = await startInstance({ limits: { evictIdleMs: 200 } });
  const path = t.sockets.control!.path;
  const idle = [];
  for (let i = 0; i < 256; i++) idle.push(await connect(path));
  try {
    await until("256 connections", () => t.sockets.control!.stats().connections === 256);
    await delay(250); // a connection just opened is never closed for a newcomer
    const r = await t.call("list");
    assert.equal(r.ok, true);
    const notice = JSON.parse((await idle[0]!.line())!);
    assert.equal(notice.id, null);
    assert.match(notice.error, /^Closed after \d+ s idle to make room: 256 connections open$/);
    assert.equal(await idle[0]!.line(), null, "then closed");
    assert.ok(t.sockets.control!.stats().evicted >= 1);
  } finally {
    for (const c of idle) c.close();
  }
});

Deno.test("when no connection is idle a newcomer gets one line and ctl exits 2", async () => {
  await using t = await startInstance({ limits: { maxConnections: 4 } });
  await t.ok("new", { name: "s", command: "sleep 60" });
  const path = t.sockets.control!.path;
  const busy = [];
  for (let i = 0; i < 3; i++) {
    const c = await connect(path);
    await c.send(`{"id":1,"verb":"wait","args":{"target":"s","state":"done","timeout":30}}\n`);
    busy.push(c);
  }
  busy.push(await connect(path)); // idle, but only just opened: it keeps its place
  try {
    await until("3 waits", () => t.sockets.control!.stats().inFlight === 3);
    const { err, io } = captured();
    const rc = await runCtl(["list"], { LAZYSHELL_CONTROL: path }, io);
    assert.equal(rc, 2);
    assert.deepEqual(err, [
      "lazyshell ctl: Too many control connections (4 open, none idle): try again later",
    ]);
    assert.equal(t.sockets.control!.stats().refused, 1);
  } finally {
    for (const c of busy) c.close();
  }
});

Deno.test("pending waits have their own bound: past it a wait is refused and ctl still gets in", async () => {
  const limits = { maxConnections: 8, maxWaits: 4, evictIdleMs: 100 };
  await using t = await startInstance({ limits });
  await t.ok("new", { name: "s", command: "sleep 60" });
  const path = t.sockets.control!.path;
  const waiting = [];
  for (let i = 0; i < 8; i++) {
    const c = await connect(path);
    await c.send(`{"id":${i},"verb":"wait","args":{"target":"s","state":"done","timeout":60}}\n`);
    waiting.push(c);
  }
  try {
    await until("4 waits pending", () => t.sockets.control!.stats().inFlight === 4);
    for (const c of waiting.slice(4)) {
      assert.match(
        JSON.parse((await c.line())!).error,
        /^Too many pending waits \(4\): try again later$/,
      );
    }
    await delay(150); // the refused ones are idle now, and may be closed for a newcomer
    const { out, err, io } = captured();
    assert.equal(await runCtl(["list"], { LAZYSHELL_CONTROL: path }, io), 0, err.join("\n"));
    assert.match(out.join("\n"), /\bs\b/);
    assert.equal(t.sockets.control!.stats().inFlight, 4, "the 4 waits still pending");
  } finally {
    for (const c of waiting) c.close();
  }
});

Deno.test("a wait whose client went away is cancelled at once; a half-closed client still gets its reply", async () => {
  await using t = await startInstance({ limits: { probeMs: 100 } });
  await t.ok("new", { name: "s", command: "sleep 60" });
  const path = t.sockets.control!.path;
  const server = t.sockets.control!;
  const wait = (timeout: number) =>
    `{"id":1,"verb":"wait","args":{"target":"s","state":"done","timeout":${timeout}}}\n`;
  const gone = [];
  for (let i = 0; i < 50; i++) {
    const c = await connect(path);
    await c.send(wait(60));
    gone.push(c);
  }
  await until("50 waits", () => server.stats().inFlight === 50);
  for (const c of gone) c.close();
  await until("the 50 waits to be freed", () => {
    const s = server.stats();
    return s.inFlight === 0 && s.connections === 0;
  });

  const half = await connect(path);
  await half.send(wait(1));
  await half.conn.closeWrite();
  let blanks = 0;
  let line: string | null;
  while ((line = await half.line()) === "") blanks++;
  half.close();
  assert.ok(blanks >= 1, "probed while its wait ran");
  const reply = JSON.parse(line!);
  assert.equal(reply.id, 1);
  assert.match(reply.error, /^Timed out after 1 s waiting for session-1 \(s\) to be done/);
});

Deno.test("a connection idle past the idle timeout is closed with a notice; a long wait is not idle", async () => {
  await using t = await startInstance({ limits: { idleMs: 300 } });
  await t.ok("new", { name: "s", command: "sleep 60" });
  const path = t.sockets.control!.path;
  const idle = await connect(path);
  const waiting = await connect(path);
  await waiting.send(`{"id":7,"verb":"wait","args":{"target":"s","state":"done","timeout":1}}\n`);
  assert.deepEqual(JSON.parse((await idle.line())!), {
    id: null,
    ok: false,
    error: "Closed after 0.3 s without a request",
  });
  assert.equal(await idle.line(), null);
  const reply = JSON.parse((await waiting.line())!);
  assert.equal(reply.id, 7, "the wait outlived the idle timeout");
  idle.close();
  waiting.close();
});

Deno.test("ctl exits 2 with one line when the socket closes on it", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lzs-closing-" });
  const path = `${dir}/control.sock`;
  const listener = Deno.listen({ transport: "unix", path });
  const accepting = (async () => {
    for await (const conn of listener) conn.close();
  })().catch(() => {});
  try {
    for (let i = 0; i < 10; i++) {
      const { err, io } = captured();
      const rc = await runCtl(["list"], { LAZYSHELL_CONTROL: path }, io);
      assert.equal(rc, 2, err.join("\n"));
      assert.equal(err.length, 1);
      assert.match(err[0]!, new RegExp(`^lazyshell ctl: Cannot reach lazyshell at ${path}: `));
    }
  } finally {
    listener.close();
    await accepting;
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a wait timeout past the bound is refused alike by ctl (before connecting) and the server", async () => {
  await using t = await startInstance();
  await t.ok("new", { name: "s", command: "sleep 60" });
  const expected = "wait: --timeout must be at most 604800";
  assert.equal(await t.error("wait", { target: "s", state: "done", timeout: 2147484 }), expected);
  const { err, io } = captured();
  const rc = await runCtl(
    ["wait", "s", "--state", "done", "--timeout", "2147484"],
    { LAZYSHELL_CONTROL: "/nonexistent/control.sock" },
    io,
  );
  assert.equal(rc, 2);
  assert.deepEqual(err, [`lazyshell ctl: ${expected}`]);
});

Deno.test("sends to a session that never reads are refused past 4 MiB waiting: nothing accepted that cannot be delivered", async () => {
  await using t = await startInstance();
  // Raw mode: the terminal's line buffer does not discard, it fills (4 KiB) and stays full.
  await t.ok("new", { name: "sleeper", command: "stty raw -echo; echo READY; sleep 1000" });
  await until("READY", async () => {
    const r = await t.ok<{ lines: string[] }>("read", { target: "sleeper" });
    return r.lines.includes("READY");
  });
  const text = "y".repeat(900 * 1024);
  const results = [];
  for (let i = 0; i < 8; i++) results.push(await t.call("send", { target: "sleeper", text }));
  const accepted = results.filter((r) => r.ok).length;
  assert.ok(accepted >= 4 && accepted <= 5, `${accepted} sends accepted`);
  for (const r of results.filter((r) => !r.ok)) {
    assert.equal(
      r.ok ? "" : r.error,
      "session-1 (sleeper) is not reading its input (over 4 MiB waiting): nothing sent",
    );
  }
});
