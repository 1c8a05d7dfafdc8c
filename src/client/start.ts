/**
 * What only a client that may start a server loads (src/client/client.ts):
 * the start lock and spawn, the project file's trust question, the splash,
 * and `restore` answered with no server from the state file.
 */

import { dataDir, type Env } from "../config/paths.ts";
import { UserError } from "../errors.ts";
import { ensureRuntimeRoot } from "../ipc/runtime_dir.ts";
import { selfCommand } from "../plugin/self.ts";
import { leaveSplash, showSplash } from "../tui/splash.ts";
import type { ServerPaths } from "../wire/paths.ts";
import type { RestoreRequest } from "../wire/protocol.ts";
import { canConnect, ensureServer } from "../wire/spawn.ts";
import type { ClientOptions } from "./client.ts";

/**
 * Starts this name's server when none runs (plain `lazyshell`, `restore`):
 * true when this client started it. A new server starts the nearest
 * lazyshell.yml: the user says yes to it first, here; `restore` starts
 * none (the saved sessions, project ones too, come back as they were
 * saved). While a server starts, an attaching client shows the splash.
 */
export async function startServer(
  options: ClientOptions,
  env: Record<string, string>,
  name: string,
  paths: ServerPaths,
): Promise<boolean> {
  ensureRuntimeRoot(env);
  const running = await canConnect(paths.socket);
  const approved = options.mode === "attach" &&
    (running || options.project !== undefined || options.yes === true || await trusted(env));
  if (!running && options.mode === "attach") await showSplash();
  try {
    return await ensureServer({
      paths,
      name,
      self: selfCommand(),
      project: options.project,
      projectArgs: options.yes ? ["--yes"] : approved ? [] : ["--no-project"],
      cwd: Deno.cwd(),
      env,
      logFile: serverLog(env),
    });
  } catch (error) {
    leaveSplash();
    throw error;
  }
}

/**
 * `restore` with no server running, when it starts no saved session
 * (listing, `--forget`, names none of which is saved): answered from the
 * state file, in the server's words, and no server is started
 * (src/restore/without_server.ts). Null: a server answers. The start lock
 * is held meanwhile: no client starts a server that reads the file then.
 */
export async function restoreWithoutServer(
  env: Env,
  name: string,
  paths: ServerPaths,
  ask: RestoreRequest = { all: false, forget: false, names: [] },
): Promise<number | null> {
  ensureRuntimeRoot(env);
  if (await canConnect(paths.socket)) return null;
  using lock = await Deno.open(paths.lock, { create: true, write: true, mode: 0o600 });
  await lock.lock(true);
  try {
    if (await canConnect(paths.socket)) return null;
    // Loaded only here: the manifests and the state file's schema are npm-backed.
    const { answerWithoutServer } = await import("../restore/without_server.ts");
    const answer = await answerWithoutServer(env, name, ask);
    if (answer === null) return null;
    await Deno.stdout.write(new TextEncoder().encode(answer.text));
    return answer.code;
  } finally {
    await lock.unlock();
  }
}

/**
 * Whether the nearest lazyshell.yml may start: true when there is none;
 * otherwise `lazyshell trust --ask` says (silent when it is trusted as it
 * is; else it shows what the file starts and asks on this terminal).
 */
async function trusted(env: Env): Promise<boolean> {
  // Only when no server runs: attaching to one does not load it.
  const { findProjectFile } = await import("../config/project_find.ts");
  if (findProjectFile(Deno.cwd(), env.HOME ?? null) === null) return true;
  const [exe, ...args] = selfCommand();
  const status = await new Deno.Command(exe!, {
    args: [...args, "trust", "--ask"],
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn().status;
  if (status.code === 2) throw new UserError("The project file was not started (see above)");
  return status.success;
}

function serverLog(env: Env): string {
  const dir = dataDir(env);
  try {
    Deno.mkdirSync(dir, { recursive: true });
  } catch { /* the spawn reports it */ }
  return `${dir}/server.log`;
}
