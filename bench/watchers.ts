/**
 * Watcher cost (docs/notifications.md "Pattern watchers"): a 50 MB log streamed through a lazyshell session
 * with no watcher and with 20 pattern watchers, alternating in one run.
 * Each run is timed from spawn until every byte is parsed by the emulator
 * (so the line tests, which run inside parsing, are included).
 *
 * Figures: MB/s each way, the slowdown (target ≤ 10%), lazyshell's own CPU
 * time each way (from /proc/self/stat: steadier than wall time on a busy
 * machine, and it leaves out `cat`), the extra CPU per completed line, and
 * how many lines and matches the watchers saw. Best of BENCH_ROUNDS (5).
 * The log has 1% of 5xx lines and one ERROR in 500, so about half the
 * chunks hold a match: the fast path (skip chunks with none) is not the
 * whole story.
 */

import { SessionStore } from "../src/session/store.ts";
import { Watchers } from "../src/notify/watchers.ts";
import { SessionWatches, type WatchSpec } from "../src/notify/watch_rules.ts";
import { LineAssembler } from "../src/notify/line_assembler.ts";
import { rng } from "./corpus.ts";

const SIZE = Number(Deno.env.get("BENCH_MB") ?? "50") * 1024 * 1024;
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? "5");
const COLS = 200;
const ROWS = 60;

/** 20 patterns of the kind people watch logs for; a few match, most do not. */
const PATTERNS: readonly string[] = [
  "ERR!",
  "\\bERROR\\b",
  "FATAL",
  "panic:",
  "Traceback \\(most recent call last\\)",
  "Segmentation fault",
  "Unhandled(Promise)?Rejection",
  "timeout after \\d+ ?ms",
  "\\s5\\d\\d\\s",
  "ECONNREFUSED|ECONNRESET",
  "out of memory",
  "deadlock detected",
  "failed to compile",
  "\\bWARN(ING)?\\b.*deprecated",
  "test(s)? failed",
  "assertion failed",
  "build failed",
  "exit (code|status) [1-9]",
  "stack overflow",
  "permission denied",
];

const LEVELS = ["INFO ", "INFO ", "INFO ", "DEBUG", "DEBUG", "WARN "];
const PATHS = ["/users", "/orders", "/health", "/api/v1/items", "/login", "/static/app.js"];

/** A plausible server log: timestamps, levels, colour on the level, one ERROR in ~500 lines. */
async function writeLog(path: string, bytes: number): Promise<number> {
  const r = rng(7);
  const encoder = new TextEncoder();
  using file = await Deno.open(path, { write: true, create: true, truncate: true });
  let written = 0;
  let lines = 0;
  let t = Date.UTC(2026, 10, 29, 12);
  while (written < bytes) {
    let block = "";
    for (let i = 0; i < 500; i++) {
      t += Math.floor(r() * 50);
      const ts = new Date(t).toISOString();
      const status = r() < 0.01 ? 503 : 200;
      const level = i === 250 ? "ERROR" : LEVELS[Math.floor(r() * LEVELS.length)]!;
      const colour = level === "ERROR" ? 31 : level.startsWith("WARN") ? 33 : 32;
      const path = PATHS[Math.floor(r() * PATHS.length)]!;
      block += `${ts} \x1b[${colour}m${level}\x1b[0m [api] GET ${path}/${
        Math.floor(r() * 100000)
      } ${status} ${Math.floor(r() * 900)}ms\n`;
      lines++;
    }
    const chunk = encoder.encode(block);
    await file.write(chunk);
    written += chunk.length;
  }
  return lines;
}

/** This process's CPU time in seconds (utime + stime, Linux), steadier than wall time under load. */
function cpuSeconds(): number {
  const stat = Deno.readTextFileSync("/proc/self/stat");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function run(file: string, patterns: readonly string[], record?: string[]) {
  await using store = new SessionStore({ shell: "/bin/sh", cols: COLS, rows: ROWS });
  let notified = 0;
  using watchers = new Watchers({ notify: () => notified++ });
  // `read` holds the stream until the watchers are in place.
  const session = store.create({ command: `read -r go; cat ${file}` });
  const specs: WatchSpec[] = patterns.map((pattern) => ({ pattern, notify: true }));
  if (specs.length > 0) watchers.add(session, specs);
  using _record = session.tap((data) => record?.push(data));
  let feeds = 0;
  using _count = { [Symbol.dispose]: session.terminal.xterm.onLineFeed(() => feeds++).dispose };
  const start = performance.now();
  const cpuStart = cpuSeconds();
  session.write("go\n", false);
  await session.exited;
  const seconds = (performance.now() - start) / 1000;
  const cpu = cpuSeconds() - cpuStart;
  const matches = watchers.list(session.id).reduce((n, w) => n + w.matches, 0);
  return { seconds, cpu, feeds, matches, notified };
}

/**
 * The watcher layer alone on the session's own output chunks, in process:
 * no PTY, no emulator, so neither scheduling nor the machine's other load
 * between processes blurs it. CPU ms for the whole stream, best of 3.
 */
function replay(chunks: readonly string[], patterns: readonly string[]): number {
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const watches = new SessionWatches(patterns.map((pattern) => ({ pattern, notify: true })));
    const lines = new LineAssembler(false, (text, from) => watches.find(text, from));
    const start = cpuSeconds();
    for (const chunk of chunks) lines.push(chunk, (line) => watches.test(line, 0));
    best = Math.min(best, cpuSeconds() - start);
  }
  return best;
}

const dir = await Deno.makeTempDir({ prefix: "lazyshell-bench-" });
try {
  const file = `${dir}/server.log`;
  const lines = await writeLog(file, SIZE);
  const mb = (await Deno.stat(file)).size / 1024 / 1024;
  console.log(
    `watchers: ${mb.toFixed(0)} MB log (${lines} lines), ${PATTERNS.length} patterns, ` +
      `${COLS}x${ROWS}, best of ${ROUNDS} rounds, alternating`,
  );
  const best = { bare: Infinity, watched: Infinity, bareCpu: Infinity, watchedCpu: Infinity };
  let seen = { feeds: 0, matches: 0, notified: 0 };
  const chunks: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const b = await run(file, [], round === 0 ? chunks : undefined);
    const w = await run(file, PATTERNS);
    best.bare = Math.min(best.bare, b.seconds);
    best.watched = Math.min(best.watched, w.seconds);
    best.bareCpu = Math.min(best.bareCpu, b.cpu);
    best.watchedCpu = Math.min(best.watchedCpu, w.cpu);
    seen = w;
    console.log(
      `  round ${round + 1}: without ${b.seconds.toFixed(2)} s (cpu ${b.cpu.toFixed(2)} s), ` +
        `with ${w.seconds.toFixed(2)} s (cpu ${w.cpu.toFixed(2)} s)`,
    );
  }
  const slowdown = (best.watched / best.bare - 1) * 100;
  const cpuSlowdown = (best.watchedCpu / best.bareCpu - 1) * 100;
  const verdict = (pct: number) => (pct <= 10 ? "ok" : "OVER TARGET");
  console.log(`without watchers   ${(mb / best.bare).toFixed(1)} MB/s`);
  console.log(`with 20 watchers   ${(mb / best.watched).toFixed(1)} MB/s`);
  console.log(`slowdown (wall)    ${slowdown.toFixed(1)}% (target ≤ 10%) ${verdict(slowdown)}`);
  console.log(
    `cpu cost (ours)    ${cpuSlowdown.toFixed(1)}% more lazyshell CPU (target ≤ 10%) ${
      verdict(cpuSlowdown)
    }`,
  );
  console.log(
    `cost per line      ${(((best.watchedCpu - best.bareCpu) / lines) * 1e6).toFixed(2)} µs cpu`,
  );
  const layer = replay(chunks, PATTERNS);
  const layerPct = (layer / best.bareCpu) * 100;
  console.log(
    `watcher layer      ${
      ((layer / lines) * 1e6).toFixed(2)
    } µs cpu per line alone (replay of the ` +
      `session's ${chunks.length} chunks) = ${layerPct.toFixed(1)}% of the bare session's CPU ` +
      `(target ≤ 10%) ${verdict(layerPct)}`,
  );
  console.log(
    `lines seen         ${seen.feeds} line feeds, ${seen.matches} matches, ${seen.notified} notifications`,
  );
} finally {
  await Deno.remove(dir, { recursive: true });
}
