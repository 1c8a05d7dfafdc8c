/**
 * `lazyshell -H DEST <attach|ls|ctl …|restore|reload|kill-server>` (docs/remote.md):
 * the client commands against the lazyshell server on another host, over
 * the user's own ssh. DEST is a `hosts:` name of config.yml or a
 * destination as ssh takes it; the ssh command is `$LAZYSHELL_SSH`, else
 * `ssh.command`, else `ssh`.
 */

import type { Env } from "../config/paths.ts";
import { UserError } from "../errors.ts";
import { printable } from "../model/printable.ts";
import { serverName } from "../wire/paths.ts";
import { parseDestination, splitWords } from "./ssh_command.ts";
import { type BridgeTarget, openBridge } from "./transport.ts";
import { labelNotifications, notifyLabel } from "./notify_label.ts";

export interface HostEntry {
  readonly name: string;
  readonly destination: string;
  readonly command: string | null;
}

/** What `-H DEST` reaches: the ssh words, the destination, the remote command. */
export async function bridgeTarget(dest: string, env: Env, version: string): Promise<BridgeTarget> {
  const { ssh, hosts } = await sshSettings(env);
  const host = hosts.find((h) => h.name === dest);
  const name = serverName(env);
  return {
    ssh: splitWords(ssh),
    dest: host
      ? { ...parseDestination(host.destination), label: host.name }
      : parseDestination(dest),
    remote: host?.command ?? "lazyshell",
    server: name === "default" ? null : name,
    version,
  };
}

/** The `hosts:` of config.yml. */
export async function hostList(env: Env): Promise<readonly HostEntry[]> {
  return (await sshSettings(env)).hosts;
}

/** `$LAZYSHELL_SSH`, `ssh.command` and `hosts:`; config.yml read only when it exists. */
async function sshSettings(env: Env): Promise<{ ssh: string; hosts: readonly HostEntry[] }> {
  const { configFile } = await import("../config/paths.ts");
  let exists = false;
  try {
    exists = Deno.statSync(configFile(env)).isFile;
  } catch { /* none */ }
  if (!exists) return { ssh: env.LAZYSHELL_SSH || "ssh", hosts: [] };
  const { loadConfig } = await import("../config/load.ts");
  const { ConfigError } = await import("../errors.ts");
  let config;
  try {
    config = loadConfig(env).config;
  } catch (error) {
    if (error instanceof ConfigError) throw new UserError(error.message);
    throw error;
  }
  return { ssh: env.LAZYSHELL_SSH || config.ssh.command || "ssh", hosts: config.hosts };
}

export async function runRemote(dest: string, args: string[], version: string): Promise<number> {
  const env = Deno.env.toObject();
  const target = await bridgeTarget(dest, env, version);
  if (args[0] === "ctl") {
    const { runCtl } = await import("../ctl/client.ts");
    return await runCtl(args.slice(1), env, undefined, {
      label: target.dest.label,
      // A fresh server there answers `ctl new` (when its config turns control on).
      open: async () => (await openBridge(target, "control", true)).conn,
    });
  }
  const { clientCommand } = await import("../client/main.ts");
  const client = clientCommand(args);
  if (client === null || client.project !== undefined || client.yes) {
    throw new UserError(
      `-H ${printable(dest)} runs attach, ls, ctl, restore, reload and kill-server` +
        (args[0] ? `, not ${printable(args[0])}` : ""),
    );
  }
  const { runClient } = await import("../client/client.ts");
  const label = notifyLabel(target.dest.label);
  return await runClient({
    ...client,
    version,
    remote: {
      label: target.dest.label,
      open: async (start) => {
        // `attach` and a plain `-H DEST` start the server there, as `lazyshell` does here.
        const bridge = await openBridge(target, "attach", start || client.mode === "attach");
        return { conn: bridge.conn, cwd: bridge.cwd };
      },
      // Notifications from there say where they come from.
      shown: (bytes) => labelNotifications(bytes, label),
    },
  });
}

/** `-H DEST` / `-HDEST` in front: the host; null when absent. */
export function hostFlag(args: readonly string[]): { dest: string | null; rest: string[] } {
  const [first, second, ...rest] = args;
  if (first === "-H") {
    if (second === undefined) {
      throw new UserError("-H needs a host (dev, me@box, ssh://me@box:2222)");
    }
    return { dest: second, rest };
  }
  if (first?.startsWith("-H") && first.length > 2) {
    return { dest: first.slice(2), rest: second === undefined ? rest : [second, ...rest] };
  }
  return { dest: null, rest: [...args] };
}
