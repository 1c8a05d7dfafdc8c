/**
 * The checks that make a runtime directory ours, applied by the server
 * when it creates one and by every client before it connects to a socket
 * in one (`ctl`, `lazyshell hook`): with XDG_RUNTIME_DIR unset the root is
 * `$TMPDIR/lazyshell-<uid>`, a name another local user can take first and
 * fill with a socket of their own, to receive what we send (`ctl send …
 * "export AWS_SECRET=…"`). So: lstat, never followed — not a symlink, owned
 * by us, no group or other bits — and the socket itself ours. Each failure
 * is one line naming the path, what is wrong and what to do.
 *
 * Deno APIs only and no other import than errors.ts and config/paths.ts
 * (itself import-free): the hook client loads this on every agent hook.
 */

import { UserError } from "../errors.ts";
import { currentUid, type Env, runtimeRoot } from "../config/paths.ts";

const FIX = "remove it, or set XDG_RUNTIME_DIR to a directory only you can enter";

/** Refuses a directory anyone else could have prepared or can enter. */
export function checkPrivateDir(path: string): void {
  const info = Deno.lstatSync(path);
  const refuse = (why: string) =>
    new UserError(`Refusing runtime directory ${path}: ${why} (${FIX})`);
  if (info.isSymlink) throw refuse("it is a symlink");
  if (!info.isDirectory) throw refuse("not a directory");
  const me = currentUid();
  if (me !== null && info.uid !== null && info.uid !== me) {
    throw refuse(`owned by uid ${info.uid}, not ${me}`);
  }
  const mode = (info.mode ?? 0) & 0o777;
  if ((mode & 0o077) !== 0) throw refuse(`mode ${mode.toString(8)} lets others in, want 700`);
}

/**
 * Before connecting to `path`: its directory passes checkPrivateDir and the
 * socket is a socket of ours. When the socket lies under the runtime root
 * (`env`'s, see runtime_dir.ts), every directory from that root down to it
 * passes too, as the server and `ctl` require of the root: a private
 * instance directory inside a root others can enter is still refused. A
 * missing path is left to the connect (its own clear error); anything else
 * wrong is a UserError.
 */
export function checkOwnSocket(path: string, env: Env = runtimeEnv()): void {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw new UserError(`Cannot inspect socket ${path}: ${(error as Error).message}`);
  }
  const me = currentUid();
  for (const dir of directoriesToCheck(path, runtimeRoot(env, me))) checkPrivateDir(dir);
  if (!info.isSocket) throw new UserError(`Refusing ${path}: not a socket`);
  if (me !== null && info.uid !== null && info.uid !== me) {
    throw new UserError(`Refusing socket ${path}: owned by uid ${info.uid}, not ${me}`);
  }
}

/** The socket's directory, and when it lies under `root`, the root and those between, root first. */
export function directoriesToCheck(path: string, root: string): string[] {
  const slash = path.lastIndexOf("/");
  const parent = slash > 0 ? path.slice(0, slash) : slash === 0 ? "/" : ".";
  const base = root.replace(/\/+$/, "");
  if (!base || !parent.startsWith(`${base}/`)) return [parent];
  const dirs = [base];
  for (const part of parent.slice(base.length + 1).split("/")) {
    if (part) dirs.push(`${dirs.at(-1)}/${part}`);
  }
  return dirs;
}

/** Only what runtimeRoot reads (the whole environment may be refused by --allow-env lists). */
function runtimeEnv(): Env {
  const get = (name: string) => {
    try {
      return Deno.env.get(name);
    } catch {
      return undefined;
    }
  };
  return { XDG_RUNTIME_DIR: get("XDG_RUNTIME_DIR"), TMPDIR: get("TMPDIR") };
}
