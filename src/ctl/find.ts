/**
 * Which lazyshell `ctl` talks to (docs/control-api.md): with `-L NAME` or
 * `$LAZYSHELL_SERVER`, the server of that name; else `$LAZYSHELL_CONTROL` (set
 * in every session of an instance with control on); else the `default`
 * server, or the single running instance with a control socket. None,
 * several, or control switched off each get one clear line saying what to do. The runtime root is checked
 * like the server checks it (private_path.ts) before anything in it is
 * trusted: a directory planted by another user is named, never used.
 */

import { UserError } from "../errors.ts";
import { configFile, currentUid, type Env, runtimeRoot } from "../config/paths.ts";
import { checkPrivateDir } from "../ipc/private_path.ts";
import { DEFAULT_SERVER, serverName } from "../wire/paths.ts";

export const ENABLE_HINT = "set `control: {enabled: true}` in";

export async function findControlSocket(
  env: Env,
  controlEnabled: () => Promise<boolean>,
): Promise<string> {
  const named = Boolean(env.LAZYSHELL_SERVER);
  if (!named && env.LAZYSHELL_CONTROL) return env.LAZYSHELL_CONTROL;
  const name = serverName(env); // -L NAME is passed on as LAZYSHELL_SERVER (main.ts)
  const root = runtimeRoot(env, currentUid());
  if (exists(root)) checkPrivateDir(root);
  // Loaded only to look (in a session, $LAZYSHELL_CONTROL names the socket).
  const { listInstances } = await import("../ipc/runtime_dir.ts");
  const all = listInstances(root);
  const flag = name === DEFAULT_SERVER ? "" : ` -L ${name}`;
  // Named: only that server counts. Else the default server, or the only instance there is.
  const ofName = all.filter((i) => i.server === name);
  const instances = named || ofName.length > 0 ? ofName : all;
  const withControl = instances.filter((i) => i.control !== null);
  if (withControl.length === 1) return withControl[0]!.control!;
  if (withControl.length > 1) {
    throw new UserError(
      `Several lazyshell instances are running (pids ${
        withControl.map((i) => i.pid).join(", ")
      }): ` +
        `pick one with -L NAME, or set LAZYSHELL_CONTROL to one of ${
          withControl.map((i) => i.control).join(", ")
        }`,
    );
  }
  if (named && instances.length === 0) {
    const others = all.flatMap((i) => i.server === null ? [] : [i.server]).sort();
    throw new UserError(
      `No lazyshell server named ${name} is running` +
        (others.length > 0 ? ` (running: ${others.join(", ")})` : "") +
        `: start it with \`lazyshell${flag}\``,
    );
  }
  const file = configFile(env);
  if (instances.length > 0 || !(await controlEnabled())) {
    const running = instances.length > 0
      ? ` (lazyshell pid ${instances.map((i) => i.pid).join(", ")} runs without it)`
      : "";
    throw new UserError(
      `The control API is off${running}: ${ENABLE_HINT} ${file}, then ` +
        (instances.length > 0 ? `run \`lazyshell${flag} reload\`` : "start lazyshell"),
    );
  }
  throw new UserError("No running lazyshell instance: start `lazyshell` or `lazyshell serve`");
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
