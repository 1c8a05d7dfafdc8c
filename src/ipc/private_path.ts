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
 * Deno APIs only and no other import than errors.ts: the hook client loads
 * this on every agent hook.
 */

import { UserError } from "../errors.ts";

function uid(): number | null {
  try {
    return Deno.uid();
  } catch {
    return null;
  }
}

const FIX = "remove it, or set XDG_RUNTIME_DIR to a directory only you can enter";

/** Refuses a directory anyone else could have prepared or can enter. */
export function checkPrivateDir(path: string): void {
  const info = Deno.lstatSync(path);
  const refuse = (why: string) =>
    new UserError(`Refusing runtime directory ${path}: ${why} (${FIX})`);
  if (info.isSymlink) throw refuse("it is a symlink");
  if (!info.isDirectory) throw refuse("not a directory");
  const me = uid();
  if (me !== null && info.uid !== null && info.uid !== me) {
    throw refuse(`owned by uid ${info.uid}, not ${me}`);
  }
  const mode = (info.mode ?? 0) & 0o777;
  if ((mode & 0o077) !== 0) throw refuse(`mode ${mode.toString(8)} lets others in, want 700`);
}

/**
 * Before connecting to `path`: its directory passes checkPrivateDir and the
 * socket is a socket of ours. A missing path is left to the connect (its
 * own clear error); anything else wrong is a UserError.
 */
export function checkOwnSocket(path: string): void {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw new UserError(`Cannot inspect socket ${path}: ${(error as Error).message}`);
  }
  const slash = path.lastIndexOf("/");
  checkPrivateDir(slash > 0 ? path.slice(0, slash) : slash === 0 ? "/" : ".");
  if (!info.isSocket) throw new UserError(`Refusing ${path}: not a socket`);
  const me = uid();
  if (me !== null && info.uid !== null && info.uid !== me) {
    throw new UserError(`Refusing socket ${path}: owned by uid ${info.uid}, not ${me}`);
  }
}
