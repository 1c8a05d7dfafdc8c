/**
 * Shared by the TUI benchmarks: lazyshell and tmux each started in a real
 * PTY of the same size (read through the headless emulator), CPU time of
 * a process tree from /proc, percentiles.
 */

import { SessionStore } from "../src/session/store.ts";
import type { Session } from "../src/session/session.ts";
import { screenText, waitFor } from "../src/session/test_util.ts";
import { lazyshell } from "../tools/abuse/server.ts";

export const COLS = 120;
export const ROWS = 32;
const ROOT = new URL("..", import.meta.url).pathname;
/** The main.ts under test: this checkout's, or BENCH_MAIN (another checkout's, a before/after run). */
export const MAIN = Deno.env.get("BENCH_MAIN") ?? `${ROOT}main.ts`;

export interface Lab extends AsyncDisposable {
  readonly dir: string;
  readonly store: SessionStore;
  readonly env: Record<string, string>;
}

/** A temp dir with an isolated lazyshell config/data/runtime and a PTY store. */
export function lab(): Lab {
  const dir = Deno.makeTempDirSync({ prefix: "lazyshell-tui-bench-" });
  for (const d of ["config/lazyshell", "data", "run", "state"]) {
    Deno.mkdirSync(`${dir}/${d}`, { recursive: true });
  }
  Deno.chmodSync(`${dir}/run`, 0o700);
  const env = {
    ...Deno.env.toObject(),
    HOME: dir,
    // Keep deno's cache (it lives under the real HOME by default): a cold cache is not start-up.
    DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
    SHELL: "/bin/bash",
    XDG_CONFIG_HOME: `${dir}/config`,
    XDG_DATA_HOME: `${dir}/data`,
    XDG_RUNTIME_DIR: `${dir}/run`,
    XDG_STATE_HOME: `${dir}/state`,
  };
  delete (env as Record<string, string | undefined>).TMUX;
  const store = new SessionStore({ shell: "/bin/sh", env, cols: COLS, rows: ROWS, cwd: dir });
  return {
    dir,
    store,
    env,
    async [Symbol.asyncDispose]() {
      // A server `lazyshell` started outlives its client by design: end it.
      await lazyshell(env, ["kill-server"]);
      await store[Symbol.asyncDispose]();
      Deno.removeSync(dir, { recursive: true });
    },
  };
}

/** The pid of the server `lazyshell` started in this lab (from its ready line), or null. */
export function serverPidOf(l: Lab): number | null {
  try {
    const log = Deno.readTextFileSync(`${l.dir}/data/lazyshell/server.log`);
    const pids = [...log.matchAll(/ready \(pid (\d+)/g)].map((m) => Number(m[1]));
    return pids.at(-1) ?? null;
  } catch {
    return null;
  }
}

/** A 10 Hz spinner, as an agent's "working" line redraws. */
export const SPINNER =
  `while :; do for c in '|' / - '\\\\'; do printf '\\r%s working' "$c"; sleep 0.1; done; done`;

/** Writes a project file of `commands` (one session each) and returns its path. */
export function project(l: Lab, commands: readonly string[]): string {
  const file = `${l.dir}/project.yml`;
  const sessions = commands.map((c, i) =>
    `  - name: s${i + 1}\n    command: ${JSON.stringify(c)}\n`
  );
  Deno.writeTextFileSync(file, `sessions:\n${sessions.join("")}`);
  return file;
}

/** lazyshell started in a PTY (exec'd so the session pid is lazyshell's). */
export function startLazyshell(l: Lab, args: readonly string[] = []): Session {
  const flags = Deno.env.get("BENCH_DENO_FLAGS") ?? "";
  return l.store.create({ command: `exec deno run -A ${flags} ${MAIN} ${args.join(" ")}` });
}

export function tmuxCommand(
  l: Lab,
  socket: string,
  ...args: string[]
): Promise<Deno.CommandOutput> {
  return new Deno.Command("tmux", { args: ["-L", socket, "-f", "/dev/null", ...args], env: l.env })
    .output();
}

/** A detached tmux server whose windows run `commands`, then a client attached in a PTY. */
export async function startTmux(l: Lab, socket: string, commands: readonly string[]): Promise<{
  client: Session;
  serverPid: number;
}> {
  const [first, ...rest] = commands;
  await tmuxCommand(l, socket, "new-session", "-d", "-x", `${COLS}`, "-y", `${ROWS}`, first!);
  for (const c of rest) await tmuxCommand(l, socket, "new-window", "-d", c);
  await tmuxCommand(l, socket, "select-window", "-t", ":0");
  const pid = await tmuxCommand(l, socket, "display", "-p", "#{pid}");
  const client = l.store.create({ command: `exec tmux -L ${socket} -f /dev/null attach` });
  await waitFor(client, () => /\[\d+\]/.test(screenText(client)), 30_000, "the tmux status line");
  return { client, serverPid: Number(new TextDecoder().decode(pid.stdout).trim()) };
}

/** utime + stime of a process, in seconds. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(rest[11]) + Number(rest[12])) / 100;
  } catch {
    return 0;
  }
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export async function hasTmux(): Promise<boolean> {
  try {
    return (await new Deno.Command("tmux", { args: ["-V"], stdout: "null" }).output()).success;
  } catch {
    return false;
  }
}
