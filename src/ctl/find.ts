/**
 * Which lazyshell `ctl` talks to (docs/control-api.md): `$LAZYSHELL_CONTROL` (set in
 * every session of an instance with control on), else the single running
 * instance with a control socket. None, several, or control switched off
 * each get one clear line saying what to do. The runtime root is checked
 * like the server checks it (private_path.ts) before anything in it is
 * trusted: a directory planted by another user is named, never used.
 */

import { UserError } from "../errors.ts";
import { configFile, currentUid, type Env, runtimeRoot } from "../config/paths.ts";
import { listInstances } from "../ipc/runtime_dir.ts";
import { checkPrivateDir } from "../ipc/private_path.ts";

export const ENABLE_HINT = "set `control: {enabled: true}` in";

export async function findControlSocket(
  env: Env,
  controlEnabled: () => Promise<boolean>,
): Promise<string> {
  if (env.LAZYSHELL_CONTROL) return env.LAZYSHELL_CONTROL;
  const root = runtimeRoot(env, currentUid());
  if (exists(root)) checkPrivateDir(root);
  const instances = listInstances(root);
  const withControl = instances.filter((i) => i.control !== null);
  if (withControl.length === 1) return withControl[0]!.control!;
  if (withControl.length > 1) {
    throw new UserError(
      `Several lazyshell instances are running (pids ${
        withControl.map((i) => i.pid).join(", ")
      }): ` +
        `set LAZYSHELL_CONTROL to one of ${withControl.map((i) => i.control).join(", ")}`,
    );
  }
  const file = configFile(env);
  if (instances.length > 0 || !(await controlEnabled())) {
    const running = instances.length > 0
      ? ` (lazyshell pid ${instances.map((i) => i.pid).join(", ")} runs without it)`
      : "";
    throw new UserError(
      `The control API is off${running}: ${ENABLE_HINT} ${file}, then ` +
        (instances.length > 0 ? "run `lazyshell reload`" : "start lazyshell"),
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
