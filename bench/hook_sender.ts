/**
 * What checking a hook's sender costs (src/ipc/peer.ts, docs/hooks.md): one
 * otherSessionSender() call with a live connection on the socket and N other
 * "sessions" (sh with two children each), p50/p90/max over 50 calls.
 *
 *   deno run -A bench/hook_sender.ts [sessions=8]
 */

import { otherSessionSender } from "../src/ipc/peer.ts";

const N = Number(Deno.args[0] ?? 8);
const dir = Deno.makeTempDirSync({ prefix: "lzs-bench-sender-" });
const path = `${dir}/session-1.sock`;
const listener = Deno.listen({ transport: "unix", path });
const client = await Deno.connect({ transport: "unix", path });
const server = await listener.accept();
const kids = Array.from(
  { length: N },
  () => new Deno.Command("sh", { args: ["-c", "sleep 60 & sleep 60 & wait"] }).spawn(),
);
try {
  await new Promise((r) => setTimeout(r, 300));
  const sessions = kids.map((k, i) => ({ id: `session-${i + 2}`, pid: k.pid }));
  const times: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now();
    if (otherSessionSender(path, "session-1", sessions) !== null) throw new Error("not ours");
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const load = Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  console.log(
    `load average ${load}; ${N} other sessions of 3 processes: p50 ${ms(times[25]!)}, ` +
      `p90 ${ms(times[45]!)}, max ${ms(times[49]!)}`,
  );
} finally {
  for (const k of kids) k.kill("SIGKILL");
  await Promise.all(kids.map((k) => k.status));
  client.close();
  server.close();
  listener.close();
  Deno.removeSync(dir, { recursive: true });
}
