/**
 * The floor under bench/tui_latency.ts: a Deno process in lazyshell's
 * place that does nothing but pass keys through. It reads stdin the way the
 * TUI does, writes each key to a `cat` in a PTY read by the same reactor,
 * waits for the echo the same way (`awaitEcho`), and writes the raw bytes to
 * stdout. There is no emulator, no screen and no detection. What it takes is
 * what any Deno program pays on this path; lazyshell's own work is the rest.
 * Run by tui_latency.ts inside its host PTY.
 */

import { spawnPty } from "../src/session/pty.ts";

Deno.stdin.setRaw(true);
const { columns, rows } = Deno.consoleSize();
const pty = spawnPty({
  file: "/bin/cat",
  args: [],
  cwd: "/",
  env: Deno.env.toObject(),
  cols: columns,
  rows,
});
const encoder = new TextEncoder();
pty.onData((text) => {
  const bytes = encoder.encode(text);
  for (let n = 0; n < bytes.length;) n += Deno.stdout.writeSync(bytes.subarray(n));
});
pty.onExit(() => Deno.exit(0));
const decoder = new TextDecoder();
const buf = new Uint8Array(64 * 1024);
for (;;) {
  const n = await Deno.stdin.read(buf);
  if (n === null) break;
  pty.write(decoder.decode(buf.subarray(0, n), { stream: true }));
  pty.awaitEcho?.(2);
}
pty.kill();
