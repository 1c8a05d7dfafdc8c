/**
 * The two-process floor under bench/tui_latency.ts, the shape lazyshell has
 * since sessions live in a server (docs/architecture.md): a bare Deno
 * client that relays stdin to a unix socket and the socket to stdout, and a
 * bare Deno server that writes what arrives to a `cat` in a PTY (the same
 * reactor and `awaitEcho` as tui_latency_floor.ts) and the PTY's bytes back
 * to the socket. No framing, emulator, screen or detection: what any Deno
 * client/server pair pays on this path.
 *
 *   deno run -A tui_latency_floor2.ts serve SOCKET   (prints "ready")
 *   deno run -A tui_latency_floor2.ts relay SOCKET
 */

import { spawnPty } from "../src/session/pty.ts";

const [mode, path] = Deno.args;
if (!path) throw new Error("usage: tui_latency_floor2.ts serve|relay SOCKET");
const decoder = new TextDecoder();
const encoder = new TextEncoder();

async function writeAll(w: { write(b: Uint8Array): Promise<number> }, bytes: Uint8Array) {
  for (let n = 0; n < bytes.length;) n += await w.write(bytes.subarray(n));
}

if (mode === "serve") {
  const listener = Deno.listen({ transport: "unix", path });
  console.log("ready");
  const conn = await listener.accept();
  const pty = spawnPty({
    file: "/bin/cat",
    args: [],
    cwd: "/",
    env: Deno.env.toObject(),
    cols: 118,
    rows: 30,
  });
  pty.onData((text) => void writeAll(conn, encoder.encode(text)).catch(() => Deno.exit(0)));
  const buf = new Uint8Array(64 * 1024);
  for (;;) {
    const n = await conn.read(buf).catch(() => null);
    if (n === null) break;
    pty.write(decoder.decode(buf.subarray(0, n), { stream: true }));
    pty.awaitEcho?.(2);
  }
  pty.kill();
  Deno.exit(0);
} else {
  Deno.stdin.setRaw(true);
  const conn = await Deno.connect({ transport: "unix", path });
  void (async () => {
    const buf = new Uint8Array(64 * 1024);
    for (;;) {
      const n = await conn.read(buf).catch(() => null);
      if (n === null) Deno.exit(0);
      const bytes = buf.subarray(0, n);
      for (let k = 0; k < bytes.length;) k += Deno.stdout.writeSync(bytes.subarray(k));
    }
  })();
  const buf = new Uint8Array(64 * 1024);
  for (;;) {
    const n = await Deno.stdin.read(buf);
    if (n === null) break;
    await writeAll(conn, buf.slice(0, n));
  }
  Deno.exit(0);
}
