/**
 * `deno task bench`: runs every benchmark in sequence, each in its own
 * process (so one's load and leftovers cannot skew the next), and prints
 * their figures. Every figure is a ratio against a reference measured in
 * the same run (tmux, raw `cat`, `true`) or a p50/p95, never a bare time.
 *
 * Add a benchmark: write bench/<name>.ts (runnable alone with
 * `deno run -A bench/<name>.ts`) and append it to BENCHES.
 * `deno task bench <name>...` runs only those.
 */

const BENCHES: readonly string[] = [
  "throughput",
  "detect_latency",
  "hook_latency",
  "ctl_roundtrip",
  "rules",
  "prompt",
  "watchers",
  "tui_cpu",
  "tui_latency",
  "remote_latency",
  "remote_flood",
  "server",
  "plugin_host",
  "plugin_frames",
  "plugin_frames_serve",
  "hook_sender",
  "memory",
  "web",
];

const only = Deno.args.filter((a) => !a.startsWith("-"));
let failed = 0;
for (const name of BENCHES) {
  if (only.length > 0 && !only.includes(name)) continue;
  console.log(`\n=== bench/${name}.ts ===`);
  const file = new URL(`./${name}.ts`, import.meta.url).pathname;
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", file],
    stdin: "null",
  }).spawn().status;
  if (code !== 0) {
    failed++;
    console.log(`bench/${name}.ts exited with ${code}`);
  }
}
Deno.exit(failed === 0 ? 0 : 1);
