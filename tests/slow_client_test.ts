/**
 * Frames coalesce for a client that cannot keep up (docs/architecture.md,
 * Bounds), on a real AttachServer, a real PTY session and a real unix
 * socket: a relaying client reads slowly, then not at all for a while, while
 * the session floods. Before, every frame queued for it (a client 2 s
 * behind held MiBs in the server, drawn at full cost); now what waits for it
 * stays about one frame, the frames it could not take are skipped and
 * counted, and once it reads again its screen is a fresh draw's. A client
 * that acknowledges its frames (FrameType.Ack, as `lazyshell` does) is also
 * not left behind by what the socket's buffer holds: when the flood ends it
 * is at most about ACK_WINDOW behind.
 */

import assert from "node:assert/strict";
import { parseConfig } from "../src/config/config.ts";
import { Runtime } from "../src/runtime/runtime.ts";
import { AttachServer } from "../src/server/server.ts";
import { ACK_WINDOW } from "../src/server/client_output.ts";
import { frame, FrameReader, FrameType, SERVER_PROTOCOL } from "../src/wire/protocol.ts";
import { HeadlessTerminal } from "../src/session/terminal.ts";
import { testEnv } from "../src/session/test_util.ts";
import { sleep } from "./attach_lab.ts";

const SIZE = { cols: 200, rows: 50 };
const KiB = 1024;

/** A relaying client whose reads are paced: `rate` bytes a second, 0 = not reading. */
class PacedClient implements Disposable {
  readonly conn: Deno.UnixConn;
  readonly screen = new HeadlessTerminal({ ...SIZE, scrollback: 0 });
  rate = 0;
  received = 0;
  lastByteAt = performance.now();
  #stop = false;
  readonly done: Promise<void>;

  readonly #acks: boolean;
  #frames = 0;

  constructor(conn: Deno.UnixConn, acks: boolean) {
    this.conn = conn;
    this.#acks = acks;
    this.done = this.#loop();
  }

  async #loop(): Promise<void> {
    const reader = new FrameReader();
    const buf = new Uint8Array(256 * KiB);
    while (!this.#stop) {
      if (this.rate === 0) {
        await sleep(20);
        continue;
      }
      // 20 ms worth at `rate` (the whole buffer when fast).
      const want = Math.min(buf.length, Math.max(1, Math.round(this.rate / 50)));
      let n: number | null;
      try {
        n = await this.conn.read(buf.subarray(0, want));
      } catch {
        return;
      }
      if (n === null) return;
      this.received += n;
      this.lastByteAt = performance.now();
      for (const f of reader.push(buf.subarray(0, n))) {
        if (f.type !== FrameType.Output) continue;
        this.screen.write(f.payload);
        if (this.#acks) {
          const ack = frame(FrameType.Ack, { frames: ++this.#frames });
          for (let w = 0; w < ack.length;) w += await this.conn.write(ack.subarray(w));
        }
      }
      if (this.rate < Infinity) await sleep(20);
    }
  }

  /** Reads at full speed until nothing came for `quietMs`. */
  async catchUp(quietMs = 700): Promise<void> {
    this.rate = Infinity;
    await until(() => performance.now() - this.lastByteAt > quietMs, 20_000);
    await this.screen.flush();
  }

  [Symbol.dispose](): void {
    this.#stop = true;
    try {
      this.conn.close();
    } catch { /* closed */ }
    this.screen[Symbol.dispose]();
  }
}

async function until(ok: () => boolean, ms: number): Promise<void> {
  const t0 = performance.now();
  while (!ok()) {
    if (performance.now() - t0 > ms) throw new Error(`not within ${ms} ms`);
    await sleep(20);
  }
}

async function attach(socket: string, acks: boolean): Promise<PacedClient> {
  const conn = await Deno.connect({ transport: "unix", path: socket });
  const bytes = frame(FrameType.Hello, {
    protocol: SERVER_PROTOCOL,
    version: "test",
    mode: "attach",
    ...SIZE,
    tmux: false,
    cwd: "/",
    ...(acks ? { acks: true } : {}),
  });
  for (let n = 0; n < bytes.length;) n += await conn.write(bytes.subarray(n));
  return new PacedClient(conn, acks);
}

/** A 4 s flood seen by a client reading 16 KiB/s, stopped 1–3 s in; figures as it caught up. */
async function scenario(acks: boolean) {
  const dir = Deno.makeTempDirSync({ prefix: "lzs-slow-" });
  const env = testEnv({ XDG_CONFIG_HOME: `${dir}/c`, XDG_DATA_HOME: `${dir}/d` });
  const runtime = new Runtime({ env, config: parseConfig("", "config.yml"), cwd: dir });
  const logged: string[] = [];
  const server = await AttachServer.listen({
    runtime,
    name: "slow",
    socket: `${dir}/s.sock`,
    version: "test",
    log: (line) => logged.push(line),
    plugins: false,
  });
  const go = `${dir}/go`;
  // Every cell of the pane changes each frame; then one last line to find.
  const flood = runtime.createSession({
    name: "flood",
    command: `while [ ! -e ${go} ]; do sleep 0.05; done; end=$(($(date +%s)+4)); ` +
      `while [ $(date +%s) -lt $end ]; do head -c 300000 /dev/urandom | base64 -w 150; done; ` +
      `echo FLOOD-DONE; sleep 600`,
  });
  const slow = await attach(server.socket, acks);
  try {
    slow.rate = Infinity;
    await until(() => server.clientStats().length === 1 && slow.received > 0, 30_000);
    await sleep(300);
    // 16 KiB/s, then 2 s without reading (a stopped client), then 16 KiB/s again.
    slow.rate = 16 * KiB;
    Deno.writeTextFileSync(go, "");
    let maxQueued = 0;
    const t0 = performance.now();
    const shows = (t: HeadlessTerminal) => t.visibleLines().some((l) => l.includes("FLOOD-DONE"));
    while (!shows(flood.terminal)) {
      const s = (performance.now() - t0) / 1000;
      slow.rate = s > 1 && s < 3 ? 0 : 16 * KiB;
      maxQueued = Math.max(maxQueued, server.clientStats()[0]?.queued ?? 0);
      assert.ok(s < 120, "the flood did not end"); // 4 s of output, parsed: slow under load
      await sleep(25);
    }
    slow.rate = 16 * KiB;
    // What it still reads, at its pace, until its own screen shows the end.
    const readAtEnd = slow.received;
    const tEnd = performance.now();
    await until(() => shows(slow.screen), 60_000);
    const behind = { bytes: slow.received - readAtEnd, ms: performance.now() - tEnd };
    const during = server.clientStats()[0]!;
    await slow.catchUp();
    const lines = slow.screen.visibleLines().map((l) => l.trimEnd());

    // A fresh client of the same size: what the slow one shows must be its first frame.
    using fresh = await attach(server.socket, acks);
    fresh.rate = Infinity;
    await until(() => server.clientStats().length === 2 && fresh.received > 0, 30_000);
    await fresh.catchUp();
    const freshLines = fresh.screen.visibleLines().map((l) => l.trimEnd());
    console.log(
      `slow client${acks ? " that acknowledges" : ""} (16 KiB/s, 2 s stopped) during a 4 s ` +
        `flood: at most ${(maxQueued / KiB).toFixed(0)} KiB waited for it in the server; ` +
        `${during.frames} frames drawn, ${during.skipped} skipped; at the flood's end it was ` +
        `${(behind.bytes / KiB).toFixed(0)} KiB (${behind.ms.toFixed(0)} ms) behind`,
    );
    assert.ok(lines.some((l) => l.includes("FLOOD-DONE")), lines.join("\n"));
    assert.deepEqual(lines, freshLines);
    assert.deepEqual(logged.filter((l) => l.includes("Disconnected")), []);
    return { maxQueued, skipped: during.skipped, behind };
  } finally {
    slow[Symbol.dispose]();
    await server[Symbol.asyncDispose]();
    await runtime[Symbol.asyncDispose]();
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("a slow client: what waits for it stays about a frame, skipped draws are counted, it ends on a fresh draw", async () => {
  const { maxQueued, skipped } = await scenario(false);
  assert.ok(skipped > 0, "no frame was skipped");
  // One frame of 200×50 with its colours is well under 256 KiB; queued, the flood made MiBs.
  assert.ok(maxQueued < 256 * KiB, `${maxQueued} bytes waited for the slow client`);
});

Deno.test("a slow client that acknowledges its frames is behind by about ACK_WINDOW, not by the socket's buffer", async () => {
  const { maxQueued, skipped, behind } = await scenario(true);
  assert.ok(skipped > 0, "no frame was skipped");
  assert.ok(maxQueued < 256 * KiB, `${maxQueued} bytes waited for the slow client`);
  // ACK_WINDOW and the frame that passed it; without Acks, the socket's buffer (~200 KiB) more.
  assert.ok(behind.bytes < ACK_WINDOW + 64 * KiB, `${behind.bytes} bytes behind`);
});
