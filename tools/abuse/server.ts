/**
 * A `lazyshell serve` under abuse: started in a private temp home (its own
 * config, runtime and state dirs) with the control API on, driven through
 * the real control socket, its memory read from /proc. Used by the items in
 * items/ (one abuse each) and by tests that need the real server process.
 */

import { request } from "../../src/ctl/client.ts";
import type { ControlResponse } from "../../src/ipc/protocol.ts";

/** The program under abuse; ABUSE_MAIN runs another checkout's (a before/after run). */
const MAIN = Deno.env.get("ABUSE_MAIN") ?? new URL("../../main.ts", import.meta.url).pathname;

export interface ServeOptions {
  /** Extra config.yml lines (control is on, shell is /bin/bash). */
  readonly config?: string;
  /** Extra arguments after `serve` (e.g. `--project FILE`). */
  readonly args?: readonly string[];
  /** Working directory of serve (default: the temp home). */
  readonly cwd?: string;
  /** Files to write under the temp home before start: relative path → text. */
  readonly files?: Readonly<Record<string, string>>;
  /** The main.ts to run (default: ABUSE_MAIN, else this checkout's). */
  readonly main?: string;
}

export interface Server extends AsyncDisposable {
  readonly pid: number;
  readonly base: string;
  readonly env: Record<string, string>;
  /** control.sock of this instance. */
  readonly socket: string;
  /** One request on a fresh connection. */
  call(verb: string, args?: Record<string, unknown>, timeoutMs?: number): Promise<ControlResponse>;
  /** Resident memory now, in bytes. */
  rss(): number;
  /** Peak resident memory since start (VmHWM), in bytes. */
  peakRss(): number;
  /** Everything serve printed on stderr so far. */
  stderr(): string;
  /** Sends `signal` and waits for the exit (SIGKILL after `ms`). */
  stop(signal?: Deno.Signal, ms?: number): Promise<Deno.CommandStatus>;
}

export async function startServe(options: ServeOptions = {}): Promise<Server> {
  const base = Deno.makeTempDirSync({ prefix: "lzs-abuse-" });
  Deno.mkdirSync(`${base}/config/lazyshell`, { recursive: true });
  Deno.mkdirSync(`${base}/run`, { mode: 0o700 });
  Deno.writeTextFileSync(
    `${base}/config/lazyshell/config.yml`,
    `control:\n  enabled: true\nshell: /bin/bash\n${options.config ?? ""}`,
  );
  for (const [path, text] of Object.entries(options.files ?? {})) {
    Deno.mkdirSync(`${base}/${path}`.replace(/\/[^/]*$/, ""), { recursive: true });
    Deno.writeTextFileSync(`${base}/${path}`, text);
  }
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: base,
    SHELL: "/bin/bash",
    XDG_CONFIG_HOME: `${base}/config`,
    XDG_RUNTIME_DIR: `${base}/run`,
    XDG_STATE_HOME: `${base}/state`,
    XDG_DATA_HOME: `${base}/data`,
    NO_COLOR: "1",
  };
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", options.main ?? MAIN, "serve", ...(options.args ?? [])],
    cwd: options.cwd ?? base,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  const ready = Promise.withResolvers<void>();
  const drained = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
      if (text.includes("ready")) ready.resolve();
    }
    ready.reject(new Error(`serve ended before it was ready: ${text.trim()}`));
  })();
  await ready.promise;
  const socket = /control: (\S+control\.sock)/.exec(text)?.[1];
  if (!socket) throw new Error(`serve did not name its control socket: ${text.trim()}`);
  const status = (path: string, key: string) => {
    const m = new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(Deno.readTextFileSync(path));
    return m ? Number(m[1]) * 1024 : 0;
  };
  let exited: Deno.CommandStatus | null = null;
  void child.status.then((s) => (exited = s));
  const stop = async (signal: Deno.Signal = "SIGTERM", ms = 10_000) => {
    if (!exited) {
      try {
        child.kill(signal);
      } catch { /* gone */ }
    }
    const timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
    }, ms);
    try {
      const s = await child.status;
      await drained;
      return s;
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    pid: child.pid,
    base,
    env,
    socket,
    call: async (verb, args = {}, timeoutMs = 30_000) =>
      (await request(socket, verb, args, timeoutMs)).response,
    rss: () => status(`/proc/${child.pid}/status`, "VmRSS"),
    peakRss: () => status(`/proc/${child.pid}/status`, "VmHWM"),
    stderr: () => text,
    stop,
    async [Symbol.asyncDispose]() {
      await stop("SIGTERM");
      Deno.removeSync(base, { recursive: true });
    },
  };
}

/**
 * `ctl list` latency, one request every 50 ms while `going()` holds: the
 * samples (ms) and how many got no ok reply.
 */
export async function sampleList(
  server: Server,
  going: () => boolean,
): Promise<{ samples: number[]; failures: number }> {
  const samples: number[] = [];
  let failures = 0;
  while (going()) {
    const start = performance.now();
    try {
      if (!(await server.call("list", {}, 30_000)).ok) failures++;
    } catch {
      failures++;
    }
    samples.push(performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { samples, failures };
}

/** p50/p99/max of samples in ms. */
export function percentiles(samples: readonly number[]): { p50: number; p99: number; max: number } {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), max: s[s.length - 1] ?? NaN };
}

export const MB = 1024 * 1024;
