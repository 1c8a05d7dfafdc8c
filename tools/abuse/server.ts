/**
 * `lazyshell serve` as a child process, for the tests, benchmarks and tools
 * that need the real server:
 *
 * - spawnServe: serve with the caller's environment, its stderr collected,
 *   ready once it printed its whole ready line, stopped by a signal (SIGKILL
 *   after a grace period);
 * - startServe: the same under abuse, in a private temp home (its own
 *   config, runtime and state dirs) with the control API on, driven through
 *   the real control socket, its memory read from /proc. Used by the items
 *   in items/ (one abuse each);
 * - lazyshell: one CLI command (`ls`, `ctl …`, `kill-server`) as a user runs it.
 */

import { request } from "../../src/ctl/client.ts";
import type { ControlResponse } from "../../src/ipc/protocol.ts";
import { processMemoryBytes } from "../../src/platform/process_files.ts";

/** This checkout's main.ts. */
const THIS_MAIN = new URL("../../main.ts", import.meta.url).pathname;
/** The program under abuse; ABUSE_MAIN runs another checkout's (a before/after run). */
const MAIN = Deno.env.get("ABUSE_MAIN") ?? THIS_MAIN;

export interface SpawnOptions {
  /** Arguments after `serve` (e.g. `--project FILE`, `--yes`). */
  readonly args?: readonly string[] | undefined;
  /** Working directory of serve (default: this process's). */
  readonly cwd?: string | undefined;
  /** The main.ts to run (default: this checkout's). */
  readonly main?: string;
  /** A `lazyshell` program to run instead of `deno run main.ts` (a compiled binary). */
  readonly program?: string;
  /** False: deno's own notices stay on serve's stderr (default: `deno run --quiet`). */
  readonly quiet?: boolean;
  /** How long `ready` waits before it rejects (default: as long as serve runs). */
  readonly readyMs?: number;
}

export interface ServeChild extends AsyncDisposable {
  readonly child: Deno.ChildProcess;
  readonly pid: number;
  /** serve's whole ready line; rejects with its stderr if serve ends first (or after readyMs). */
  readonly ready: Promise<string>;
  /** Everything serve printed on stderr, once it closed it (it ended). */
  readonly ended: Promise<string>;
  /** Everything serve printed on stderr so far. */
  stderr(): string;
  /** Sends `signal` (unless serve ended) and waits for the exit and its stderr; SIGKILL after `ms`. */
  stop(signal?: Deno.Signal, ms?: number): Promise<Deno.CommandStatus>;
}

/** The control socket a ready line names (`control: PATH,`), or null with the control API off. */
export function controlSocket(readyLine: string): string | null {
  return /control: (\S+?),/.exec(readyLine)?.[1] ?? null;
}

/** Starts `lazyshell serve` with exactly `env`; `ready` says when it listens. */
export function spawnServe(env: Record<string, string>, options: SpawnOptions = {}): ServeChild {
  const lazyshell = options.program === undefined
    ? ["run", "-A", ...(options.quiet === false ? [] : ["--quiet"]), options.main ?? THIS_MAIN]
    : [];
  const child = new Deno.Command(options.program ?? Deno.execPath(), {
    args: [...lazyshell, "serve", ...(options.args ?? [])],
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  const ready = Promise.withResolvers<string>();
  ready.promise.catch(() => {}); // a caller that never waits for ready (serve refuses to start)
  const ended = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) {
      text += decoder.decode(chunk, { stream: true });
      // The whole line: a chunk may end inside it, before the control socket.
      const line = /^lazyshell serve: ready.*(?=\n)/m.exec(text)?.[0];
      if (line) ready.resolve(line);
    }
    ready.reject(new Error(`serve ended before it was ready: ${text.trim()}`));
    return text;
  })();
  if (options.readyMs !== undefined) {
    const ms = options.readyMs;
    const timer = setTimeout(
      () => ready.reject(new Error(`serve not ready in ${ms / 1000} s: ${text.trim()}`)),
      ms,
    );
    void ready.promise.finally(() => clearTimeout(timer)).catch(() => {});
  }
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
      await ended;
      return s;
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    child,
    pid: child.pid,
    ready: ready.promise,
    ended,
    stderr: () => text,
    stop,
    async [Symbol.asyncDispose]() {
      await stop();
    },
  };
}

/** `lazyshell <args>` as a plain subprocess with exactly `env`: its exit code and output. */
export async function lazyshell(
  env: Record<string, string>,
  args: readonly string[],
  cwd?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", THIS_MAIN, ...args],
    env,
    ...(cwd === undefined ? {} : { cwd }),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

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
  const serve = spawnServe(env, {
    args: options.args,
    cwd: options.cwd ?? base,
    main: options.main ?? MAIN,
  });
  const ready = await serve.ready;
  const socket = controlSocket(ready);
  if (!socket) throw new Error(`serve did not name its control socket: ${serve.stderr().trim()}`);
  const { pid, stop } = serve;
  const status = (key: "VmRSS" | "VmHWM") => {
    const bytes = processMemoryBytes(pid, key);
    if (bytes === null) throw new Error(`the server (pid ${pid}) has no memory status to read`);
    return bytes;
  };
  return {
    pid,
    base,
    env,
    socket,
    call: async (verb, args = {}, timeoutMs = 30_000) =>
      (await request(socket, verb, args, timeoutMs)).response,
    rss: () => status("VmRSS"),
    peakRss: () => status("VmHWM"),
    stderr: serve.stderr,
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
