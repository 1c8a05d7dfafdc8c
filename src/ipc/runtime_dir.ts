/**
 * Where the sockets live (docs/architecture.md, Sockets): `$XDG_RUNTIME_DIR/lazyshell`, else
 * `$TMPDIR/lazyshell-$UID`, mode 0700, with one sub-directory per running
 * instance (named by its pid) holding `session-N.sock` and `control.sock`,
 * each 0600.
 *
 * The directory's permissions are the access control of both sockets, so
 * it is checked with lstat, never followed: not a symlink, owned by us, no
 * group or other bits (private_path.ts; clients check the same before they
 * connect). A socket file left by a killed instance is found by a refused
 * connect and replaced; a live one is never taken over.
 */

import { UserError } from "../errors.ts";
import { currentUid, type Env, runtimeRoot } from "../config/paths.ts";
import { isAlive } from "../platform/liveness.ts";
import { checkPrivateDir } from "./private_path.ts";

export { checkPrivateDir } from "./private_path.ts";

/** sockaddr_un.sun_path is 108 bytes, NUL included. */
const MAX_SOCKET_PATH = 107;

export const CONTROL_SOCKET = "control.sock";
/** In a lasting server's instance directory: its name (`-L NAME`), so `ctl` can find it by name. */
export const SERVER_NAME_FILE = "server-name";
/** The project file a lasting server started with (docs/architecture.md, Start-up). */
export const SERVER_PROJECT_FILE = "server-project";

function mkdirPrivate(path: string): void {
  try {
    Deno.mkdirSync(path, { mode: 0o700 });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      const parent = path.slice(0, path.lastIndexOf("/")) || "/";
      throw new UserError(
        `Cannot create runtime directory ${path}: ${parent} does not exist ` +
          `(XDG_RUNTIME_DIR or TMPDIR names a missing directory)`,
      );
    }
    if (!(error instanceof Deno.errors.AlreadyExists)) {
      throw new UserError(`Cannot create runtime directory ${path}: ${(error as Error).message}`);
    }
  }
  checkPrivateDir(path);
}

/** The per-user root, created 0700 when missing, checked always. */
export function ensureRuntimeRoot(env: Env): string {
  const root = runtimeRoot(env, currentUid());
  mkdirPrivate(root);
  return root;
}

export interface InstanceInfo {
  readonly dir: string;
  readonly pid: number;
  /** The control socket path when that instance has one. */
  readonly control: string | null;
  /** The lasting server's name (`-L NAME`), or null (not a lasting server, or an older one). */
  readonly server: string | null;
}

/** Instances whose process is alive (dead ones' directories are skipped); `alive`: the platform's test. */
export function listInstances(root: string, alive = isAlive): InstanceInfo[] {
  const out: InstanceInfo[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(root)];
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (!entry.isDirectory || !/^\d+$/.test(entry.name)) continue;
    const pid = Number(entry.name);
    if (!alive(pid)) continue;
    const dir = `${root}/${entry.name}`;
    let control: string | null = `${dir}/${CONTROL_SOCKET}`;
    try {
      if (!Deno.lstatSync(control).isSocket) control = null;
    } catch {
      control = null;
    }
    out.push({ dir, pid, control, server: readServerName(dir) });
  }
  return out.sort((a, b) => a.pid - b.pid);
}

/** Records this instance's lasting-server name in its directory (0600). */
export function writeServerName(dir: string, name: string): void {
  Deno.writeTextFileSync(`${dir}/${SERVER_NAME_FILE}`, `${name}\n`, { mode: 0o600 });
}

/** Records the project file this lasting server started with (0600). */
export function writeServerProject(dir: string, file: string): void {
  Deno.writeTextFileSync(`${dir}/${SERVER_PROJECT_FILE}`, `${file}\n`, { mode: 0o600 });
}

/** The project file the running lasting server `name` started with, or null (none, or no server). */
export function serverProject(root: string, name: string): string | null {
  const instance = listInstances(root).find((i) => i.server === name);
  if (!instance) return null;
  try {
    return Deno.readTextFileSync(`${instance.dir}/${SERVER_PROJECT_FILE}`).trim() || null;
  } catch {
    return null;
  }
}

function readServerName(dir: string): string | null {
  try {
    const name = Deno.readTextFileSync(`${dir}/${SERVER_NAME_FILE}`).trim();
    return /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/.test(name) ? name : null;
  } catch {
    return null;
  }
}

/** Removes directories of instances that are gone (killed without cleanup); `alive`: the platform's test. */
export function pruneDeadInstances(root: string, alive = isAlive): void {
  for (const entry of safeReadDir(root)) {
    if (!entry.isDirectory || !/^\d+$/.test(entry.name)) continue;
    if (Number(entry.name) === Deno.pid || alive(Number(entry.name))) continue;
    try {
      Deno.removeSync(`${root}/${entry.name}`, { recursive: true });
    } catch { /* another instance may be pruning it too */ }
  }
}

function safeReadDir(dir: string): Deno.DirEntry[] {
  try {
    return [...Deno.readDirSync(dir)];
  } catch {
    return [];
  }
}

/**
 * This process's own directory under the root (created 0700). A directory
 * left under our pid by a killed instance (pid reuse) is emptied of its
 * stale sockets first.
 */
export async function createInstanceDir(env: Env): Promise<string> {
  const root = ensureRuntimeRoot(env);
  pruneDeadInstances(root);
  const dir = `${root}/${Deno.pid}`;
  mkdirPrivate(dir);
  for (const entry of safeReadDir(dir)) {
    if (entry.name.endsWith(".sock")) await clearStaleSocket(`${dir}/${entry.name}`);
  }
  return dir;
}

export function removeInstanceDir(dir: string): void {
  try {
    Deno.removeSync(dir, { recursive: true });
  } catch { /* already gone */ }
}

/**
 * Listens on a Unix socket at `path` with mode 0600. A leftover file whose
 * connect is refused (its owner was killed) is replaced; a path a live
 * process listens on is a UserError.
 */
export async function listenPrivate(path: string): Promise<Deno.UnixListener> {
  checkSocketPath(path);
  await clearStaleSocket(path);
  return listenPrivateSync(path);
}

function checkSocketPath(path: string): void {
  if (new TextEncoder().encode(path).length > MAX_SOCKET_PATH) {
    throw new UserError(`Socket path too long (over ${MAX_SOCKET_PATH} bytes): ${path}`);
  }
}

/**
 * Listens at `path` in our own instance directory (emptied of stale sockets
 * by createInstanceDir, so a leftover file there can only be ours).
 * Synchronous so a session's socket exists before its child starts.
 */
export function listenPrivateSync(path: string): Deno.UnixListener {
  checkSocketPath(path);
  let old: number | null = null;
  try {
    old = Deno.umask(0o077);
  } catch { /* no umask on this platform: chmod below still applies */ }
  let listener: Deno.UnixListener;
  try {
    listener = Deno.listen({ transport: "unix", path });
  } finally {
    if (old !== null) Deno.umask(old);
  }
  Deno.chmodSync(path, 0o600);
  return listener;
}

async function clearStaleSocket(path: string): Promise<void> {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch {
    return;
  }
  if (!info.isSocket) throw new UserError(`Refusing to replace ${path}: not a socket`);
  try {
    const conn = await Deno.connect({ transport: "unix", path });
    conn.close();
    throw new UserError(`Socket already in use by a running process: ${path}`);
  } catch (error) {
    if (error instanceof UserError) throw error;
    if (error instanceof Deno.errors.ConnectionRefused || error instanceof Deno.errors.NotFound) {
      try {
        Deno.removeSync(path);
      } catch { /* gone meanwhile */ }
      return;
    }
    throw error;
  }
}
