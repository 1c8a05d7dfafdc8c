/**
 * Control round trip (C2): `lazyshell ctl list --json` against an instance
 * with 20 sessions, as a subprocess (what a script pays), next to the
 * socket round trip alone (connect, request, reply) and `true`.
 */

import { Runtime } from "../src/runtime/runtime.ts";
import { startSockets } from "../src/runtime/sockets.ts";
import { parseConfig } from "../src/config/config.ts";
import { request } from "../src/ctl/client.ts";
import { selfCommand } from "../src/plugin/self.ts";
import { row, timeInterleaved } from "./stats.ts";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? "20");
const SESSIONS = 20;
const base = Deno.makeTempDirSync({ prefix: "lzs-bench-ctl-" });
const env: Record<string, string> = { ...Deno.env.toObject(), XDG_RUNTIME_DIR: base };
const runtime = new Runtime({
  env,
  config: parseConfig("control:\n  enabled: true\nshell: /bin/sh\n", "bench-config.yml"),
  cwd: base,
});
try {
  const sockets = await startSockets(runtime);
  for (let i = 0; i < SESSIONS; i++) runtime.createSession({ command: "sleep 600" });
  const path = sockets.control!.path;
  const inProcess: number[] = [];
  for (let i = 0; i < 200; i++) {
    const start = performance.now();
    const { response } = await request(path, "list", {}, 10_000);
    if (!response.ok) throw new Error(response.error);
    if (i >= 20) inProcess.push(performance.now() - start);
  }
  const childEnv = { PATH: env.PATH ?? "/usr/bin:/bin", LAZYSHELL_CONTROL: path };
  const [baseline, ctl] = await timeInterleaved([
    { argv: ["true"], env: childEnv },
    { argv: [...selfCommand(), "ctl", "list", "--json"], env: childEnv },
  ], RUNS);
  console.log(`ctl list --json with ${SESSIONS} sessions`);
  console.log(`load average: ${Deno.loadavg().map((n) => n.toFixed(1)).join(" ")}`);
  console.log(row("true (baseline)", baseline!));
  console.log(row("socket round trip (connect + list)", inProcess));
  console.log(row("lazyshell ctl list --json (subprocess)", ctl!, baseline));
} finally {
  await runtime[Symbol.asyncDispose]();
  Deno.removeSync(base, { recursive: true });
}
