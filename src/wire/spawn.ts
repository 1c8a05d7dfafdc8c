/**
 * Starting the lasting server from a client: at most one per name, even
 * when two `lazyshell`s start at once. A client takes the name's lock file
 * (an exclusive lock, released by the kernel if the client dies), looks
 * again, and only then starts `lazyshell serve` in a new session (setsid:
 * closing the terminal does not reach it), waiting until it accepts.
 *
 * No npm import: the client stays a bare Deno start-up.
 */

import { UserError } from "../errors.ts";
import type { ServerPaths } from "./paths.ts";
import { delay } from "../util/async.ts";

/** How long a new server may take to listen (it loads the emulator, node-pty, the manifests). */
const START_TIMEOUT_MS = 20_000;

/** True when something accepts connections at `path`; false when nothing does (or a stale file). */
export async function canConnect(path: string): Promise<boolean> {
  try {
    const conn = await Deno.connect({ transport: "unix", path });
    conn.close();
    return true;
  } catch {
    return false;
  }
}

export interface StartOptions {
  readonly paths: ServerPaths;
  readonly name: string;
  /** argv that runs this lazyshell (src/plugin/self.ts). */
  readonly self: readonly string[];
  readonly project?: string | undefined;
  /** More `serve` arguments about the project file (`--yes`, `--no-project`). */
  readonly projectArgs?: readonly string[];
  readonly cwd: string;
  /** The server's environment: the client's, minus what describes the client's terminal. */
  readonly env: Record<string, string>;
  /** Where the server's stray stderr goes (its own log lines go to its data dir). */
  readonly logFile: string;
}

/**
 * Variables that describe one terminal, not the server's sessions: the
 * client's own, and those of the lazyshell session it may run in (a server
 * started there is not that session; docs/architecture.md, "Nesting").
 */
const TERMINAL_ONLY = [
  "TMUX",
  "TMUX_PANE",
  "STY",
  "WINDOWID",
  "TERM_SESSION_ID",
  "LAZYSHELL_SESSION_ID",
  "LAZYSHELL_SOCK",
  "LAZYSHELL_CONTROL",
];

/** Starts a server unless one runs; resolves once it accepts (false: one was already running). */
export async function ensureServer(options: StartOptions): Promise<boolean> {
  const { paths } = options;
  if (await canConnect(paths.socket)) return false;
  using lock = await Deno.open(paths.lock, { create: true, write: true, mode: 0o600 });
  await lock.lock(true);
  try {
    if (await canConnect(paths.socket)) return false;
    await start(options);
    return true;
  } finally {
    await lock.unlock();
  }
}

async function start(options: StartOptions): Promise<void> {
  const env = { ...options.env };
  for (const key of TERMINAL_ONLY) delete env[key];
  const [exe, ...args] = options.self;
  const serve = [...args, "-L", options.name, "serve"];
  if (options.project) serve.push("--project", options.project);
  serve.push(...(options.projectArgs ?? []));
  // sh only to send stderr to the log file: Deno.Command cannot open one for the child.
  const child = new Deno.Command("/bin/sh", {
    args: [
      "-c",
      'exec "$@" </dev/null >/dev/null 2>>"$LAZYSHELL_SERVER_LOG"',
      "sh",
      exe!,
      ...serve,
    ],
    cwd: options.cwd,
    env: { ...env, LAZYSHELL_SERVER_LOG: options.logFile },
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn();
  child.unref();
  let exited: Deno.CommandStatus | null = null;
  child.status.then((s) => (exited = s)).catch(() => {});
  const deadline = performance.now() + START_TIMEOUT_MS;
  while (performance.now() < deadline) {
    if (await canConnect(options.paths.socket)) return;
    if (exited !== null) {
      throw new UserError(
        `The lazyshell server did not start: ${lastLine(options.logFile) ?? "it exited"}`,
      );
    }
    await delay(20);
  }
  throw new UserError(
    `The lazyshell server did not listen within ${START_TIMEOUT_MS / 1000} s ` +
      `(its log: ${options.logFile})`,
  );
}

/** The last non-empty line of the server's stderr log, without the `lazyshell: ` prefix. */
function lastLine(file: string): string | null {
  try {
    const lines = Deno.readTextFileSync(file).split("\n").map((l) => l.trim()).filter(Boolean);
    const line = lines.at(-1);
    return line ? line.replace(/^lazyshell: /, "") : null;
  } catch {
    return null;
  }
}
