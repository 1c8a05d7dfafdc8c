/**
 * `deno task chaos [--seed N] [--minutes M] [--clients C] [--sessions S]`:
 * a real `lazyshell -L chaos-… serve` in its own temporary HOME and XDG
 * directories, S sessions printing what real programs print (workloads.ts),
 * C clients of random sizes (real PTY clients, relaying PTY clients and
 * relaying wire clients) that attach, type, switch to the plugin tabs,
 * resize and leave at random, and `ctl` load, for M minutes. It prints
 * server deaths, clients dropped without being asked to leave and why,
 * crash.log's entries by what threw, the server's peak memory and `ctl list`
 * p50/p95/max, and exits 1 on a death, a crash.log entry (unless
 * `--allow-crash REGEX` matches it), a dropped client or a peak over
 * `--max-rss`. See README.md.
 */

import { random } from "../../tests/random.ts";
import { request } from "../../src/ctl/client.ts";
import { serverPaths } from "../../src/wire/paths.ts";
import { percentile } from "../../bench/stats.ts";
import { delay } from "../../src/util/async.ts";
import {
  processCmdline,
  processCpuSeconds,
  processIds,
  processMemoryBytes,
  processStatText,
} from "../../src/platform/process_files.ts";
import { type ChaosClient, type ClientEnd, type Leave, ptyClient, wireClient } from "./clients.ts";
import { groupCrashes, parseCrashLog } from "./crash_summary.ts";
import { KINDS, WORK_SCRIPT } from "./workloads.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const MAIN = `${ROOT}main.ts`;
const MB = 1024 * 1024;
/** A `list` slower than this is reported with what the clients did while it waited. */
const SLOW_LIST_MS = 2000;

export interface ChaosOptions {
  readonly seed: number;
  readonly minutes: number;
  readonly clients: number;
  readonly sessions: number;
  /** The bound the server's peak resident memory must stay under, in MB. */
  readonly maxRssMb: number;
  /** crash.log entries whose error or top frame this matches are reported but do not fail the run. */
  readonly allowCrash: RegExp | null;
  /** Keep the temp dir (server stderr, crash.log) after the run. */
  readonly keep: boolean;
}

export const DEFAULTS: ChaosOptions = {
  seed: 0,
  minutes: 10,
  clients: 4,
  sessions: 16,
  maxRssMb: 1024,
  allowCrash: null,
  keep: false,
};

const USAGE =
  "Usage: deno task chaos [--seed N] [--minutes M] [--clients C] [--sessions S] [--max-rss MB] " +
  "[--allow-crash REGEX] [--keep]";

export function parseOptions(argv: readonly string[]): ChaosOptions {
  const o: { -readonly [K in keyof ChaosOptions]: ChaosOptions[K] } = {
    ...DEFAULTS,
    seed: Math.floor(Math.random() * 1e9),
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes("=") ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    const number = (min: number) => {
      const v = value();
      const n = Number(v);
      if (!Number.isFinite(n) || n < min) throw new Error(`${flag}: ${v} is not a number ≥ ${min}`);
      return n;
    };
    switch (flag) {
      case "--seed":
        o.seed = Math.floor(number(0));
        break;
      case "--minutes":
        o.minutes = number(0.05);
        break;
      case "--clients":
        o.clients = Math.floor(number(1));
        break;
      case "--sessions":
        o.sessions = Math.floor(number(1));
        break;
      case "--max-rss":
        o.maxRssMb = number(1);
        break;
      case "--allow-crash":
        o.allowCrash = new RegExp(value());
        break;
      case "--keep":
        o.keep = true;
        break;
      default:
        throw new Error(`Unknown argument ${arg}\n${USAGE}`);
    }
  }
  return o;
}

/** What a run saw. */
export interface ChaosReport {
  readonly options: ChaosOptions;
  readonly deaths: readonly string[];
  readonly attached: Record<string, number>;
  readonly leftAsAsked: number;
  /** The most clients attached at once. */
  readonly together: number;
  /** The most plugin-tab processes running at once. */
  readonly plugins: number;
  /** Reloads asked (SIGHUP). */
  readonly reloads: number;
  /** Clients that ended without being asked to (or did not end when asked): why. */
  readonly dropped: readonly string[];
  /** The server's log about clients it let go (lazyshell.log), by reason: how many. */
  readonly serverDrops: readonly [string, number][];
  readonly crashLog: string;
  readonly crashes: number;
  readonly unexpectedCrashes: number;
  readonly rssStartMb: number;
  readonly rssPeakMb: number;
  readonly rssEndMb: number;
  /** The server's CPU (user + system) over the run, in cores (NaN after a death). */
  readonly cpu: number;
  readonly list: { answered: number; failed: number; p50: number; p95: number; max: number };
  /** The slowest answers over SLOW_LIST_MS, each with what happened from 1.5 s before it was asked. */
  readonly slowLists: readonly {
    ms: number;
    at: number;
    during: readonly string[];
    /** The server's CPU seconds while it was waited for. */
    cpu: number;
    /** The longest this process's own loop was held meanwhile, in ms. */
    lag: number;
  }[];
  readonly verbs: Record<string, { ok: number; failed: number }>;
  readonly verbErrors: readonly string[];
  readonly load: readonly [number, number];
  readonly failed: readonly string[];
}

interface Server {
  readonly pid: number;
  readonly control: string;
  readonly child: Deno.ChildProcess;
  exited: Deno.CommandStatus | null;
}

export async function runChaos(
  options: ChaosOptions,
  log: (line: string) => void = console.log,
): Promise<ChaosReport> {
  const dir = Deno.makeTempDirSync({ prefix: "lzs-chaos-" });
  for (const d of ["config/lazyshell", "data", "state", "home"]) {
    Deno.mkdirSync(`${dir}/${d}`, { recursive: true });
  }
  Deno.mkdirSync(`${dir}/run`, { mode: 0o700 });
  Deno.writeTextFileSync(
    `${dir}/config/lazyshell/config.yml`,
    `control:\n  enabled: true\nshell: /bin/bash\nnotify:\n  fallback_command: "cat >/dev/null"\n`,
  );
  const name = `chaos-${Deno.pid}`;
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: `${dir}/home`,
    SHELL: "/bin/bash",
    LANG: "C.UTF-8",
    TERM: "xterm-256color",
    XDG_CONFIG_HOME: `${dir}/config`,
    XDG_DATA_HOME: `${dir}/data`,
    XDG_STATE_HOME: `${dir}/state`,
    XDG_RUNTIME_DIR: `${dir}/run`,
    PS1: "$ ",
    HISTFILE: "/dev/null",
  };
  const socket = serverPaths(env, name).socket;
  const crashFile = `${dir}/data/lazyshell/crash.log`;
  const stderrFile = `${dir}/serve.stderr`;
  const setup = { main: MAIN, name, env, cwd: `${dir}/home`, socket };
  const load0 = Deno.loadavg()[0]!;
  const t0 = performance.now();
  const endAt = t0 + options.minutes * 60_000;
  let running = true;
  const going = () => running && performance.now() < endAt;
  const stamp = () => `${((performance.now() - t0) / 1000).toFixed(1)}s`;

  const deaths: string[] = [];
  const dropped: string[] = [];
  const attached: Record<string, number> = { pty: 0, relay: 0, wire: 0 };
  let leftAsAsked = 0;
  let together = 0;
  let maxTogether = 0;
  const latencies: number[] = [];
  let listFailed = 0;
  const verbs: Record<string, { ok: number; failed: number }> = {};
  const verbErrors: string[] = [];
  let rssStart = 0;
  let rssPeak = 0;
  let rssEnd = 0;
  let plugins = 0;
  /** What the clients and the load did lately (time in ms since the start, what). */
  const events: [number, string][] = [];
  const note = (what: string) => {
    events.push([performance.now() - t0, what]);
    if (events.length > 2000) events.splice(0, 1000);
  };
  /** The slowest `list` answers, with what happened while they waited. */
  const slow: ChaosReport["slowLists"][number][] = [];

  // --- the server: started again after a death, so that the run goes on counting.
  const stderrOut = Deno.openSync(stderrFile, { write: true, create: true, append: true });
  let server: Server;
  const startServer = async (): Promise<Server> => {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", MAIN, "-L", name, "serve"],
      env,
      clearEnv: true,
      cwd: `${dir}/home`,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const ready = Promise.withResolvers<string>();
    void (async () => {
      let text = "";
      const decoder = new TextDecoder();
      for await (const chunk of child.stderr) {
        stderrOut.writeSync(chunk);
        if (text.length < 65536) {
          text += decoder.decode(chunk, { stream: true });
          const line = /^lazyshell serve: ready.*(?=\n)/m.exec(text)?.[0];
          if (line) ready.resolve(line);
        }
      }
      ready.reject(new Error(`serve ended before it was ready: ${text.trim()}`));
    })();
    const timer = setTimeout(() => ready.reject(new Error("serve not ready in 60 s")), 60_000);
    const line = await ready.promise.finally(() => clearTimeout(timer));
    const control = /control: (\S+?)[,)]/.exec(line)?.[1];
    if (!control) throw new Error(`serve named no control socket: ${line}`);
    const s: Server = { pid: child.pid, control, child, exited: null };
    void child.status.then((status) => (s.exited = status));
    return s;
  };
  const call = async (verb: string, args: Record<string, unknown> = {}, timeoutMs = 30_000) =>
    (await request(server.control, verb, args, timeoutMs, env)).response;

  // --- the sessions: KINDS in turn, each its own seed.
  const sessionIds: string[] = [];
  let sessionSerial = 0;
  const newSession = async (i: number): Promise<string | null> => {
    const kind = KINDS[i % KINDS.length]!;
    const seed = (options.seed + 7919 * ++sessionSerial) % 32768;
    const args: Record<string, unknown> = {
      name: `${kind}-${sessionSerial}`,
      group: `chaos-${i % 3}`,
    };
    if (kind !== "shell") args.command = `exec bash ${WORK_SCRIPT} ${kind} ${seed}`;
    const r = await call("new", args).catch((e) => ({ ok: false, error: String(e) }) as const);
    count("new", r.ok, r.ok ? "" : r.error);
    return r.ok ? (r.result as { id: string }).id : null;
  };
  const count = (verb: string, ok: boolean, error: string) => {
    const v = verbs[verb] ??= { ok: 0, failed: 0 };
    if (ok) v.ok++;
    else {
      v.failed++;
      if (verbErrors.length < 20) verbErrors.push(`${stamp()} ${verb}: ${error}`);
    }
  };

  const status = (key: "VmRSS" | "VmHWM") => processMemoryBytes(server.pid, key) ?? 0;
  const alive = () => {
    if (server.exited) return false;
    const stat = processStatText(server.pid);
    return stat !== null && !/^\d+ \(.*\) [ZX]/.test(stat);
  };

  server = await startServer();
  log(
    `lazyshell chaos: seed ${options.seed}, ${options.minutes} min, ${options.clients} clients, ` +
      `${options.sessions} sessions, server ${name} (pid ${server.pid}), load ${load0.toFixed(1)}`,
  );
  log(`  dir ${dir}`);
  for (let i = 0; i < options.sessions; i++) {
    const id = await newSession(i);
    if (id) sessionIds.push(id);
  }
  await delay(1000);
  rssStart = status("VmRSS");
  const cpu0 = cpuSeconds(server.pid);
  const wall0 = performance.now();

  // --- the watchdog: memory, and a death noticed (then a new server, the sessions started again).
  let ticks = 0;
  const watchdog = (async () => {
    while (going()) {
      if (!alive()) {
        const code = server.exited ? `exit ${server.exited.code}` : "gone";
        const tail = Deno.readTextFileSync(stderrFile).trim().split("\n").slice(-5).join(" | ");
        deaths.push(`${stamp()} pid ${server.pid} ${code}: ${tail}`);
        log(`  ${stamp()} SERVER DIED (${code}); starting another`);
        server = await startServer();
        sessionIds.length = 0;
        for (let i = 0; i < options.sessions; i++) {
          const id = await newSession(i);
          if (id) sessionIds.push(id);
        }
      }
      rssPeak = Math.max(rssPeak, status("VmRSS"), status("VmHWM"));
      if (++ticks % 20 === 0) plugins = Math.max(plugins, pluginProcesses(server.pid));
      await delay(250);
    }
  })();

  // --- ctl load: `list` every 100 ms, measured; other verbs at random; sessions replaced.
  // This process's own loop lag: a slow answer while it was held is this process's, not the server's.
  let lag = 0;
  const lagger = (async () => {
    while (going()) {
      const t = performance.now();
      await delay(100);
      lag = Math.max(lag, performance.now() - t - 100);
    }
  })();
  const lister = (async () => {
    while (going()) {
      const t = performance.now();
      const cpuBefore = cpuSeconds(server.pid);
      lag = 0;
      try {
        const r = await call("list", {}, 30_000);
        const ms = performance.now() - t;
        if (r.ok) latencies.push(ms);
        else listFailed++;
        if (ms > SLOW_LIST_MS) {
          const from = t - t0 - 1500;
          const during = events.filter(([at]) => at >= from && at <= t - t0 + 500).map((
            [at, what],
          ) => `${(at / 1000).toFixed(1)}s ${what}`);
          const cpu = cpuSeconds(server.pid) - cpuBefore;
          slow.push({ ms, at: t - t0, during, cpu, lag });
          slow.sort((a, b) => b.ms - a.ms);
          slow.length = Math.min(slow.length, 3);
        }
      } catch {
        listFailed++;
      }
      await delay(100);
    }
  })();
  const verbRng = random(options.seed ^ 0x5eed);
  const pick = <T>(rng: () => number, items: readonly T[]): T =>
    items[Math.floor(rng() * items.length)]!;
  const verbLoad = (async () => {
    let renamed = 0;
    while (going()) {
      await delay(100 + verbRng() * 400);
      const target = sessionIds.length ? pick(verbRng, sessionIds) : null;
      if (!target) continue;
      const which = pick(verbRng, [
        "read",
        "read",
        "send",
        "rename",
        "wait",
        "list-group",
        "group-send",
      ]);
      const args: Record<string, unknown> = which === "read"
        ? { target, ...(verbRng() < 0.5 ? { tail: Math.floor(verbRng() * 3000) } : {}) }
        : which === "send"
        ? { target, text: `# chaos ${Math.floor(verbRng() * 1e6)} 漢字 👩‍💻`, enter: true }
        : which === "rename"
        ? { target, name: `renamed-${++renamed}` }
        : which === "group-send"
        ? {
          group: `chaos-${Math.floor(verbRng() * 3)}`,
          text: "# chaos, to the group",
          enter: true,
        }
        : which === "wait"
        ? { target, state: "idle", timeout: 0.5 }
        : { group: `chaos-${Math.floor(verbRng() * 3)}` };
      const verb = which === "list-group" ? "list" : which;
      try {
        const r = await call(verb, args, 30_000);
        // `wait` timing out, or on a session the churn ended, is an answer, not a failure.
        count(
          verb,
          r.ok || (verb === "wait" && /timed? ?out|exited/i.test(r.error)),
          r.ok ? "" : r.error,
        );
      } catch (e) {
        count(verb, false, String(e));
      }
    }
  })();
  // The config read again (SIGHUP, as `lazyshell reload` does), with every client drawing.
  let reloads = 0;
  const reloader = (async () => {
    const rng = random(options.seed ^ 0x41d);
    while (going()) {
      await delay(20_000 + rng() * 40_000);
      if (!going()) break;
      try {
        Deno.kill(server.pid, "SIGHUP");
        reloads++;
        note("the server reloads (SIGHUP)");
      } catch { /* a death: the watchdog's */ }
    }
  })();
  const churn = (async () => {
    const rng = random(options.seed ^ 0xc4a05);
    while (going()) {
      await delay(15_000 + rng() * 25_000);
      if (!going() || sessionIds.length === 0) break;
      const at = Math.floor(rng() * sessionIds.length);
      const r = await call("kill", { target: sessionIds[at]! }).catch((e) => ({
        ok: false as const,
        error: String(e),
      }));
      count("kill", r.ok, r.ok ? "" : r.error);
      const id = await newSession(at);
      note(`session ${sessionIds[at]} killed, ${id} started`);
      if (id) sessionIds[at] = id;
    }
  })();

  // --- the clients: each slot attaches one client after another.
  let clientSerial = 0;
  const slot = async (n: number) => {
    const rng = random(options.seed * 31 + n + 1);
    while (going()) {
      const kind = pick(rng, ["pty", "relay", "wire"] as const);
      const [cols, rows] = size(rng);
      const id = ++clientSerial;
      let client: ChaosClient;
      try {
        client = kind === "wire"
          ? await wireClient(setup, id, cols, rows)
          : ptyClient(setup, id, kind, cols, rows);
      } catch (e) {
        dropped.push(`${stamp()} ${kind} client ${id} could not attach: ${String(e)}`);
        await delay(1000);
        continue;
      }
      attached[kind]!++;
      note(`${kind} client ${id} attaches at ${cols}×${rows}`);
      maxTogether = Math.max(maxTogether, ++together);
      void client.ended.then(() => together--);
      let end: ClientEnd | null = null;
      void client.ended.then((e) => (end = e));
      // One in ten leaves at once, before or while it is welcomed; the others stay 3–33 s.
      const brief = rng() < 0.1;
      const lifetime = performance.now() + (brief ? rng() * 500 : 3_000 + rng() * 30_000);
      // A PTY client starts Deno first: its first keys wait until it drew something.
      while (!brief && kind !== "wire" && client.bytes() === 0 && !end && going()) {
        await delay(50);
      }
      while (!end && going() && performance.now() < lifetime) {
        note(`${kind} client ${id} ${act(rng, client)}`);
        await delay(20 + rng() * 300);
      }
      if (end) {
        const e = end as ClientEnd;
        const said = e.message
          ? `: ${e.message}`
          : e.shown
          ? ` (said nothing; its terminal last showed ${JSON.stringify(e.shown)})`
          : "";
        dropped.push(
          `${stamp()} ${kind} client ${id} (${client.cols}×${client.rows}) ended unasked: ` +
            `${e.how}${said}`,
        );
        continue;
      }
      const how = pick(rng, ["d", "d", "SIGTERM", "SIGHUP", "SIGKILL", "close"] as Leave[]);
      if (how === "d") {
        // Out of a dialog, out of terminal mode, back to the sessions tab (each key apart:
        // an Esc and the next byte together read as alt+key).
        for (const key of ["\x1b", "\x1d", "1"]) {
          client.type(key);
          await delay(300);
        }
      }
      note(`${kind} client ${id} leaves by ${how}`);
      client.leave(how);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<null>((r) => (timer = setTimeout(r, 10_000, null)));
      const e = await Promise.race([client.ended, late]);
      clearTimeout(timer);
      if (e === null) {
        // `d` may land in a tab that takes keys: the terminal closing ends it as well.
        client.leave(how === "d" ? "SIGHUP" : "SIGKILL");
        const again = await Promise.race([
          client.ended,
          delay(10_000).then(() => null),
        ]);
        if (again === null) {
          dropped.push(`${stamp()} ${kind} client ${id} did not end 20 s after ${how}`);
          client.leave("SIGKILL");
        } else leftAsAsked++;
      } else if (e.message && e.how !== "detached") {
        // Asked to leave, it was cut off first (its line says why).
        dropped.push(
          `${stamp()} ${kind} client ${id} asked to leave by ${how}, ended as ${e.how}: ${e.message}`,
        );
      } else leftAsAsked++;
      await delay(200 + rng() * 2500);
    }
  };
  const slots = Array.from({ length: options.clients }, (_, n) => slot(n));

  await Promise.all([watchdog, lagger, lister, verbLoad, churn, reloader, ...slots]);
  running = false;
  rssPeak = Math.max(rssPeak, status("VmHWM"));
  rssEnd = status("VmRSS");
  const cpu = deaths.length
    ? NaN
    : (cpuSeconds(server.pid) - cpu0) / ((performance.now() - wall0) / 1000);
  const finalAlive = alive();
  if (!finalAlive && !deaths.some((d) => d.includes(`pid ${server.pid} `))) {
    deaths.push(`${stamp()} pid ${server.pid} gone at the end`);
  }

  // --- the end: the server stopped, crash.log read.
  try {
    await request(server.control, "list", {}, 10_000, env);
  } catch { /* reported by the watchdog */ }
  try {
    server.child.kill("SIGTERM");
  } catch { /* gone */ }
  await Promise.race([server.child.status, delay(15_000)]);
  try {
    server.child.kill("SIGKILL");
  } catch { /* gone */ }
  await server.child.status;
  stderrOut.close();
  let crashText = "";
  for (const f of [`${crashFile}.1`, crashFile]) {
    try {
      crashText += Deno.readTextFileSync(f);
    } catch { /* none */ }
  }
  let serverLog = "";
  try {
    serverLog = Deno.readTextFileSync(`${dir}/data/lazyshell/lazyshell.log`);
  } catch { /* none written */ }
  // What the server said about the clients it let go, by reason (numbers blurred).
  const serverDrops = new Map<string, number>();
  for (const m of serverLog.matchAll(/^\S+ client client-\d+: (.*)$/gm)) {
    const why = m[1]!.replace(/\d+(\.\d+)?/g, "N");
    serverDrops.set(why, (serverDrops.get(why) ?? 0) + 1);
  }
  const entries = parseCrashLog(crashText, ROOT);
  const groups = groupCrashes(entries);
  const crashes = groups.reduce((n, g) => n + g.count, 0);
  const allowed = (e: { error: string; top: string }) =>
    options.allowCrash !== null &&
    (options.allowCrash.test(e.error) || options.allowCrash.test(e.top));
  const unexpectedCrashes = groups.filter((g) => !allowed(g)).reduce((n, g) => n + g.count, 0);
  const crashLines = groups.map((g) =>
    `${String(g.count).padStart(5)}× ${g.error} at ${g.top} [${g.owners.join(", ")}: ${
      g.actions.join(", ")
    }]${allowed(g) ? " (allowed)" : ""}`
  );

  const failed: string[] = [];
  if (deaths.length) failed.push(`${deaths.length} server death(s)`);
  if (unexpectedCrashes) failed.push(`${unexpectedCrashes} crash.log failure(s)`);
  if (dropped.length) failed.push(`${dropped.length} client(s) dropped unasked`);
  if (rssPeak / MB > options.maxRssMb) {
    failed.push(`peak RSS ${(rssPeak / MB).toFixed(0)} MB over ${options.maxRssMb} MB`);
  }
  if (latencies.length === 0) failed.push("ctl list never answered");
  const report: ChaosReport = {
    options,
    deaths,
    attached,
    leftAsAsked,
    together: maxTogether,
    plugins,
    reloads,
    dropped,
    serverDrops: [...serverDrops],
    crashLog: crashLines.join("\n"),
    crashes,
    unexpectedCrashes,
    rssStartMb: rssStart / MB,
    rssPeakMb: rssPeak / MB,
    rssEndMb: rssEnd / MB,
    cpu,
    list: {
      answered: latencies.length,
      failed: listFailed,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      max: Math.max(0, ...latencies),
    },
    slowLists: slow,
    verbs,
    verbErrors,
    load: [load0, Deno.loadavg()[0]!],
    failed,
  };
  if (!options.keep && failed.length === 0) Deno.removeSync(dir, { recursive: true });
  else log(`  kept ${dir} (serve.stderr, data/lazyshell/crash.log)`);
  return report;
}

/** A process's CPU time so far (user + system), in seconds. */
function cpuSeconds(pid: number): number {
  return processCpuSeconds(pid) ?? NaN;
}

/** The server's children running a built-in plugin tab (`lazyshell __plugin ID`). */
function pluginProcesses(pid: number): number {
  let n = 0;
  for (const child of processIds()) {
    // Null once gone.
    const stat = processStatText(child);
    if (stat === null || Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) !== pid) {
      continue;
    }
    if (processCmdline(child)?.includes("__plugin")) n++;
  }
  return n;
}

/** A terminal size: mostly ordinary, now and then tiny or past the server's bound. */
function size(rng: () => number): [number, number] {
  const x = rng();
  if (x < 0.05) return [1 + Math.floor(rng() * 10), 1 + Math.floor(rng() * 4)];
  if (x < 0.08) return [900 + Math.floor(rng() * 400), 400 + Math.floor(rng() * 200)];
  return [20 + Math.floor(rng() * 230), 5 + Math.floor(rng() * 65)];
}

/** Keys a person presses in the TUI (never `q`, `x`, `n`, `N`, `W`, `R`: no quitting, killing, starting). */
const NAV_KEYS = [
  "j",
  "k",
  "j",
  "k",
  "t",
  "p",
  "z",
  "\x1b[5~", // pgup
  "\x1b[6~", // pgdown
  "c\x1b", // copy mode and out
  "/chaos\x1b", // search and out
  "?\x1b", // help and out
  ":\x1b", // palette and out
  "2",
  "3",
  "4",
  "5",
  "6",
  "\t",
  "\x1b[Z", // shift+tab
  "1",
  "jjj",
  "B",
  "I\x1b",
];
/**
 * What is typed into sessions: no letter the list or a tab acts on (typed
 * where enter did not reach a session — an exited one, a plugin tab — it
 * lands there).
 */
const TEXT = "efhilmsu EFHLMSU 0123456789 漢字 👩‍💻 é ñ̃ ✅ -_=+[]{};'\",.<>|";

/** One thing a person does; what it was, in a few words. */
function act(rng: () => number, client: ChaosClient): string {
  const x = rng();
  if (x < 0.03) {
    // A window dragged: a burst of sizes.
    for (let i = 0; i < 10; i++) {
      client.resize(Math.max(1, client.cols + i * 3 - 15), Math.max(1, client.rows + i - 5));
    }
    return `resize burst to ${client.cols}×${client.rows}`;
  } else if (x < 0.2) {
    const [cols, rows] = rng() < 0.7 ? size(rng) : [
      Math.max(1, client.cols + Math.floor(rng() * 21) - 10),
      Math.max(1, client.rows + Math.floor(rng() * 11) - 5),
    ];
    client.resize(cols, rows);
    return `resize ${cols}×${rows}`;
  } else if (x < 0.35) {
    // Type into the selected session, then back to the list.
    const n = 1 + Math.floor(rng() * 40);
    let text = "\r# ";
    const chars = [...TEXT];
    for (let i = 0; i < n; i++) text += chars[Math.floor(rng() * chars.length)];
    client.type(text);
    client.type(rng() < 0.5 ? "\r" : "");
    client.type("\x1d");
    return "typed";
  } else if (x < 0.5) {
    // To the first or the last session, where the other clients meet it: two clients of
    // different sizes on one session, the one that typed or selected last giving its size.
    const key = rng() < 0.5 ? "k" : "j";
    client.type(key.repeat(20));
    return `${key}×20`;
  } else {
    const keys = NAV_KEYS[Math.floor(rng() * NAV_KEYS.length)]!;
    client.type(keys);
    return `keys ${JSON.stringify(keys)}`;
  }
}

export function printReport(r: ChaosReport, log: (line: string) => void = console.log): void {
  const o = r.options;
  const ms = (v: number) => (Number.isFinite(v) ? `${Math.round(v)} ms` : "n/a");
  const total = Object.values(r.attached).reduce((a, b) => a + b, 0);
  log("");
  log(`server deaths   ${r.deaths.length}`);
  for (const d of r.deaths) log(`                ${d}`);
  log(
    `clients         ${total} attached (pty ${r.attached.pty}, relay ${r.attached.relay}, ` +
      `wire ${r.attached.wire}), at most ${r.together} at once; ${r.leftAsAsked} left when asked; ${r.dropped.length} dropped unasked`,
  );
  for (const d of r.dropped) log(`                ${d}`);
  for (const [why, n] of r.serverDrops) {
    log(`                the server's log: ${n}× client-N: ${why}`);
  }
  log(`plugin tabs     at most ${r.plugins} plugin processes running at once`);
  log(
    `crash.log       ${r.crashes} failure(s)${
      r.unexpectedCrashes !== r.crashes ? `, ${r.unexpectedCrashes} not allowed` : ""
    }${r.crashLog ? ", by what threw:" : ""}`,
  );
  if (r.crashLog) log(r.crashLog.split("\n").map((l) => `             ${l}`).join("\n"));
  log(
    `server RSS      ${r.rssStartMb.toFixed(0)} MB after start, peak ${
      r.rssPeakMb.toFixed(0)
    } MB (bound ${o.maxRssMb} MB), ${r.rssEndMb.toFixed(0)} MB at the end`,
  );
  log(
    `ctl list        ${r.list.answered} answered, ${r.list.failed} failed: p50 ${
      ms(r.list.p50)
    }, p95 ${ms(r.list.p95)}, max ${ms(r.list.max)}`,
  );
  for (const s of r.slowLists) {
    log(
      `                ${ms(s.ms)} asked at ${(s.at / 1000).toFixed(1)}s (server CPU ${
        s.cpu.toFixed(1)
      } s meanwhile, this process held up to ${ms(s.lag)}), ` +
        `around it: ${s.during.slice(0, 12).join("; ") || "nothing of the clients"}`,
    );
  }
  log(
    `ctl verbs       ${
      Object.entries(r.verbs).map(([v, c]) =>
        `${v} ${c.ok}${c.failed ? `/${c.failed} failed` : ""}`
      )
        .join(", ")
    }`,
  );
  for (const e of r.verbErrors.slice(0, 5)) log(`                ${e}`);
  log(
    `server CPU      ${Number.isFinite(r.cpu) ? `${(r.cpu * 100).toFixed(0)}% of a core` : "n/a"}`,
  );
  log(`reloads         ${r.reloads} (SIGHUP, clients attached)`);
  log(`load            ${r.load[0].toFixed(1)} → ${r.load[1].toFixed(1)}`);
  log(
    `replay          deno task chaos --seed ${o.seed} --minutes ${o.minutes} --clients ${o.clients} ` +
      `--sessions ${o.sessions}`,
  );
  log(r.failed.length ? `FAILED          ${r.failed.join("; ")}` : "held");
}

if (import.meta.main) {
  let options: ChaosOptions;
  try {
    options = parseOptions(Deno.args);
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    Deno.exit(2);
  }
  const report = await runChaos(options);
  printReport(report);
  Deno.exit(report.failed.length ? 1 : 0);
}
