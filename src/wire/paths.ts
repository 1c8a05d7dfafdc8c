/**
 * Where a lasting server listens: `server-<name>.sock` in the per-user
 * runtime directory (0700, checked as for every socket of ours), beside the
 * lock a client holds while it starts one. The name is `default` unless
 * `-L NAME` or `$LAZYSHELL_SERVER` says otherwise, as `tmux -L` does: each
 * name is an independent server.
 */

import { UserError } from "../errors.ts";
import { currentUid, type Env, runtimeRoot } from "../config/paths.ts";

export const DEFAULT_SERVER = "default";

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/;

/** `-L NAME`, else `$LAZYSHELL_SERVER`, else `default`; a bad name is a UserError. */
export function serverName(env: Env, flag?: string | undefined): string {
  const name = flag ?? (env.LAZYSHELL_SERVER || DEFAULT_SERVER);
  if (!NAME.test(name)) {
    throw new UserError(
      `Invalid server name: ${JSON.stringify(name)} (letters, digits, . _ -, at most 32)`,
    );
  }
  return name;
}

export interface ServerPaths {
  readonly root: string;
  readonly socket: string;
  /** Held by a client while it starts a server, so two clients never start two. */
  readonly lock: string;
}

export function serverPaths(env: Env, name: string): ServerPaths {
  const root = runtimeRoot(env, currentUid());
  return { root, socket: `${root}/server-${name}.sock`, lock: `${root}/server-${name}.lock` };
}
