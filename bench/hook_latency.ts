/**
 * `lazyshell hook working` wall time, as an agent pays it on every hook
 * (docs/hooks.md): with a listening instance, with none (the socket path does not
 * exist), and with a killed one (connect refused), against `true` in the
 * same run. Target: p50 ≤ 25 ms under `deno run`, never over 1 s.
 */

import type { HookEvent } from "../src/ipc/hook_mapping.ts";
import { HookServer } from "../src/ipc/hook_server.ts";
import { createInstanceDir, removeInstanceDir } from "../src/ipc/runtime_dir.ts";
import { selfCommand } from "../src/plugin/self.ts";
import { row, timeInterleaved } from "./stats.ts";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? "40");
const base = Deno.makeTempDirSync({ prefix: "lzs-bench-hook-" });
const dir = await createInstanceDir({ XDG_RUNTIME_DIR: base });
const events: HookEvent[] = [];
const server = new HookServer(dir, { hook: (_id, event) => events.push(event) });
const sock = server.open("session-1");
const stale = `${base}/stale.sock`;
const listener = Deno.listen({ transport: "unix", path: stale });
Deno.renameSync(stale, `${stale}.x`);
listener.close();
Deno.renameSync(`${stale}.x`, stale);

const hook = [...selfCommand(), "hook", "working"];
const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
try {
  // Deno's own start-up in the same directory (same deno.json): what any `deno run` pays.
  const bare = `${base}/bare.ts`;
  Deno.writeTextFileSync(bare, "");
  const bareArgv = [
    ...selfCommand().slice(0, -1),
    "--config",
    new URL("../deno.json", import.meta.url).pathname,
    bare,
  ];
  const [baseline, empty, listening, none, refused] = await timeInterleaved([
    { argv: ["true"], env },
    { argv: bareArgv, env },
    { argv: hook, env: { ...env, LAZYSHELL_SOCK: sock } },
    { argv: hook, env: { ...env, LAZYSHELL_SOCK: `${base}/missing.sock` } },
    { argv: hook, env: { ...env, LAZYSHELL_SOCK: stale } },
  ], RUNS);
  console.log(
    `lazyshell hook working, ${RUNS} runs each, interleaved (${hook.slice(0, -2).join(" ")})`,
  );
  console.log(`load average: ${Deno.loadavg().map((n) => n.toFixed(1)).join(" ")}`);
  console.log(row("true (baseline)", baseline!));
  console.log(row("deno run of an empty script (reference)", empty!, baseline));
  const reference = { name: "bare deno", samples: empty! };
  console.log(row("hook, listening instance", listening!, baseline, reference));
  console.log(row("hook, no instance (no socket)", none!, baseline, reference));
  console.log(row("hook, killed instance (refused)", refused!, baseline, reference));
  console.log(
    "(a bare `deno run` costs ~11 ms on an idle machine, docs/architecture.md; the ratio to it carries over)",
  );
  console.log(`events received: ${events.length} of ${RUNS + 3} sent to the listening socket`);
} finally {
  await server[Symbol.asyncDispose]();
  removeInstanceDir(dir);
  Deno.removeSync(base, { recursive: true });
}
