/**
 * What every abuse item gets (see README.md): a real `lazyshell serve`
 * with control on, in its own temporary HOME and XDG directories, and the
 * means to attack it and to measure what it held — the server's resident
 * memory, `ctl list` latency while the abuse runs, whether it survived.
 */

import { percentile } from "../../bench/stats.ts";
import { request } from "../../src/ctl/client.ts";
import type { ControlResponse } from "../../src/ipc/protocol.ts";
import { selfCommand } from "../../src/plugin/self.ts";
import { isAlive } from "../../src/platform/liveness.ts";
import { processMemoryBytes } from "../../src/platform/process_files.ts";
import { delay } from "../../src/util/async.ts";

/** One item: a file `items/NN_name.ts` whose default export this is. */
export interface AbuseItem {
  /** The number in the README's list ("01", "10a", ...): the order items run in. */
  readonly id: string;
  readonly title: string;
  /** False: the item brings no server of its own to measure (it may start its own, see serve()). */
  readonly server?: boolean;
  run(ctx: AbuseContext): Promise<Outcome>;
}

export interface Outcome {
  /** Whether the item's bound held (survival and memory are checked apart). */
  readonly ok: boolean;
  /** One line: what held, with figures ("disconnected after 15.0 s, 32 in flight at most"). */
  readonly bound: string;
  /** From the start of the abuse until lazyshell refused it, when it refuses. */
  readonly refusedMs?: number | undefined;
}

export interface AbuseContext {
  /** The server under abuse (null for items with `server: false`). */
  readonly server: Serve | null;
  /** A scratch directory, removed afterwards. */
  readonly tmp: string;
  /** Aborted at the item's deadline. */
  readonly signal: AbortSignal;
  /** One request on a fresh connection to the server's control socket. */
  call(verb: string, args?: Record<string, unknown>, timeoutMs?: number): Promise<ControlResponse>;
  /** `lazyshell ctl ...` as a subprocess against the server (its exit code and output). */
  ctl(...args: string[]): Promise<Run>;
}

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

const decoder = new TextDecoder();
const READY_MS = 30_000;

/** A `lazyshell serve` subprocess in private temporary directories. */
export class Serve implements AsyncDisposable {
  readonly #child: Deno.ChildProcess;
  readonly #stderr: Promise<void>;
  readonly log: string[] = [];
  readonly pid: number;
  readonly base: string;
  readonly env: Record<string, string>;
  #control: string | null = null;

  private constructor(base: string, env: Record<string, string>, args: readonly string[]) {
    this.base = base;
    this.env = env;
    const [bin, ...rest] = selfCommand();
    this.#child = new Deno.Command(bin!, {
      args: [...rest, "serve", ...args],
      env,
      clearEnv: true,
      cwd: base,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    this.pid = this.#child.pid;
    this.#stderr = this.#collect();
  }

  /**
   * Starts `lazyshell serve` with `config` as its config.yml (control on by
   * default) and `files` written under its base directory first.
   */
  static async start(
    options: { config?: string; files?: Record<string, string>; args?: string[] } = {},
  ): Promise<Serve> {
    const serve = Serve.spawn(options);
    await serve.ready();
    return serve;
  }

  /** Spawns without waiting for ready (an item that expects it to refuse to start). */
  static spawn(
    options: {
      config?: string;
      files?: Record<string, string>;
      args?: string[];
      env?: Record<string, string>;
      /** Last touches to the base directory before the start (a FIFO, a symlink ...). */
      prepare?: (base: string) => void;
    } = {},
  ): Serve {
    const base = Deno.makeTempDirSync({ prefix: "lzs-abuse-" });
    for (const dir of ["config/lazyshell", "data", "state", "run", "home"]) {
      Deno.mkdirSync(`${base}/${dir}`, { recursive: true, mode: 0o700 });
    }
    Deno.chmodSync(`${base}/run`, 0o700);
    Deno.writeTextFileSync(
      `${base}/config/lazyshell/config.yml`,
      options.config ?? "control:\n  enabled: true\nshell: /bin/sh\n",
    );
    for (const [path, text] of Object.entries(options.files ?? {})) {
      Deno.writeTextFileSync(`${base}/${path}`, text);
    }
    options.prepare?.(base);
    const env: Record<string, string> = {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: `${base}/home`,
      SHELL: "/bin/sh",
      XDG_CONFIG_HOME: `${base}/config`,
      XDG_DATA_HOME: `${base}/data`,
      XDG_STATE_HOME: `${base}/state`,
      XDG_RUNTIME_DIR: `${base}/run`,
      NO_COLOR: "1",
      ...options.env,
    };
    return new Serve(base, env, options.args ?? []);
  }

  /** The control socket (known once ready). */
  get control(): string {
    if (this.#control === null) throw new Error("lazyshell serve is not ready");
    return this.#control;
  }

  /** Resolves once serve printed its ready line; throws with its stderr if it exited first. */
  async ready(ms = READY_MS): Promise<void> {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      const line = this.log.find((l) => l.includes("lazyshell serve: ready"));
      const control = line?.match(/control: (\S+?)[,)]/)?.[1];
      if (control) {
        this.#control = control;
        return;
      }
      if (!this.alive()) break;
      await delay(20);
    }
    throw new Error(`lazyshell serve did not start: ${this.log.join(" | ")}`);
  }

  /** Alive and not a zombie (PID 1 here may not reap). */
  alive(): boolean {
    return isAlive(this.pid);
  }

  /** Resident memory in bytes (0 once gone). */
  rss(): number {
    return processMemoryBytes(this.pid, "VmRSS") ?? 0;
  }

  /** Resolves with the exit code, its stderr all in `log` (or null if still running after `ms`). */
  async exited(ms: number): Promise<number | null> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
    try {
      const code = await Promise.race([this.#child.status.then((s) => s.code), late]);
      if (code !== null) await this.#stderr;
      return code;
    } finally {
      clearTimeout(timer);
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    try {
      this.#child.kill("SIGTERM");
    } catch { /* gone */ }
    if ((await this.exited(10_000)) === null) {
      try {
        this.#child.kill("SIGKILL");
      } catch { /* gone */ }
      await this.#child.status;
    }
    await this.#stderr;
    Deno.removeSync(this.base, { recursive: true });
  }

  async #collect(): Promise<void> {
    let rest = "";
    for await (const chunk of this.#child.stderr) {
      rest += decoder.decode(chunk, { stream: true });
      const lines = rest.split("\n");
      rest = lines.pop()!;
      this.log.push(...lines);
    }
    if (rest) this.log.push(rest);
  }
}

/** `lazyshell <args>` as a subprocess with `env`; exit code, output and wall time. */
export async function lazyshell(args: string[], env: Record<string, string>): Promise<Run> {
  const [bin, ...rest] = selfCommand();
  const start = performance.now();
  const out = await new Deno.Command(bin!, {
    args: [...rest, ...args],
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: decoder.decode(out.stdout),
    stderr: decoder.decode(out.stderr),
    ms: performance.now() - start,
  };
}

/** What the harness measured around one item. */
export interface Measured {
  readonly outcome: Outcome | null;
  readonly error: string | null;
  readonly rssBefore: number;
  readonly rssPeak: number;
  readonly listP99: number | null;
  readonly listCount: number;
  readonly listFailed: number;
  readonly survived: boolean | null;
  readonly ms: number;
}

const SAMPLE_MS = 100;
const ITEM_DEADLINE_MS = 180_000;

/** Runs one item: a fresh server, RSS and `ctl list` sampled while the item runs. */
export async function runItem(item: AbuseItem): Promise<Measured> {
  const tmp = Deno.makeTempDirSync({ prefix: "lzs-abuse-item-" });
  const abort = new AbortController();
  const deadline = setTimeout(() => abort.abort(), ITEM_DEADLINE_MS);
  const server = item.server === false ? null : await Serve.start();
  const start = performance.now();
  try {
    const call = (verb: string, args: Record<string, unknown> = {}, timeoutMs = 30_000) => {
      if (!server) throw new Error(`item ${item.id} has no server`);
      return request(server.control, verb, args, timeoutMs).then((r) => r.response);
    };
    const ctx: AbuseContext = {
      server,
      tmp,
      signal: abort.signal,
      call,
      ctl: (...args) => {
        if (!server) throw new Error(`item ${item.id} has no server`);
        return lazyshell(["ctl", ...args], { ...server.env, LAZYSHELL_CONTROL: server.control });
      },
    };
    if (server) await settle(server);
    const rssBefore = server?.rss() ?? 0;
    let rssPeak = rssBefore;
    const latencies: number[] = [];
    let failed = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling && server) {
        rssPeak = Math.max(rssPeak, server.rss());
        await delay(SAMPLE_MS);
      }
    })();
    const prober = (async () => {
      while (sampling && server) {
        const t0 = performance.now();
        try {
          const r = await request(server.control, "list", {}, 30_000);
          if (r.response.ok) latencies.push(performance.now() - t0);
          else failed++;
        } catch {
          failed++;
        }
        await delay(SAMPLE_MS);
      }
    })();
    let outcome: Outcome | null = null;
    let error: string | null = null;
    try {
      outcome = await item.run(ctx);
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    sampling = false;
    await Promise.all([sampler, prober]);
    let survived: boolean | null = null;
    if (server) {
      survived = server.alive() && (await call("list").then((r) => r.ok, () => false));
    }
    return {
      outcome,
      error,
      rssBefore,
      rssPeak,
      listP99: latencies.length ? percentile(latencies, 99) : null,
      listCount: latencies.length,
      listFailed: failed,
      survived,
      ms: performance.now() - start,
    };
  } finally {
    clearTimeout(deadline);
    if (server) await server[Symbol.asyncDispose]();
    Deno.removeSync(tmp, { recursive: true });
  }
}

/** Lets the fresh server finish starting (its memory settles) before "before" is taken. */
async function settle(server: Serve): Promise<void> {
  for (let i = 0; i < 10; i++) await request(server.control, "list", {}, 30_000);
  await delay(500);
}

/** Polls `ok` every 20 ms until it holds; false when `ms` passed first. */
export async function until(ok: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await ok()) return true;
    await delay(20);
  }
  return false;
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

export function secs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
