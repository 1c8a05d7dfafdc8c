/**
 * `lazyshell <plugin-id> <args...>` (docs/plugin-protocol.md): runs the plugin's
 * executable with the arguments, stdin/stdout/stderr passed through and its
 * exit code returned (128 + n when a signal ended it). It runs in the
 * terminal's foreground group, so Ctrl+C reaches it directly; lazyshell
 * ignores SIGINT meanwhile and waits for it.
 */

import type { Env } from "../../config/paths.ts";
import { discoverPlugins, pluginEnv } from "../../plugin/discovery.ts";

const SIGNALS: Record<string, number> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGKILL: 9,
  SIGSEGV: 11,
  SIGPIPE: 13,
  SIGTERM: 15,
};

/**
 * Runs a user plugin when `args[0]` names one and is not a command or an
 * option; returns its exit code, or null when `args` are not for a plugin.
 */
export async function runPluginCommand(
  args: readonly string[],
  commands: readonly string[],
  env: Env = Deno.env.toObject(),
): Promise<number | null> {
  const [id, ...rest] = args;
  if (id === undefined || id.startsWith("-") || commands.includes(id)) return null;
  const plugin = discoverPlugins({ env, commands, builtins: false }).plugins.find((p) =>
    p.id === id
  );
  if (!plugin) return null;
  const [program, ...prefix] = plugin.command;
  const child = new Deno.Command(program!, {
    args: [...prefix, ...rest],
    env: pluginEnv(env, id),
    clearEnv: true,
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  const ignore = () => {};
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGQUIT"];
  for (const s of signals) Deno.addSignalListener(s, ignore);
  try {
    const status = await child.status;
    return status.signal === null ? status.code : 128 + (SIGNALS[status.signal] ?? 0);
  } finally {
    for (const s of signals) Deno.removeSignalListener(s, ignore);
  }
}

/** Lists the user's plugin commands at the end of `lazyshell --help`. */
export function registerPluginHelp(program: {
  addHelpText(position: "after", text: () => string): unknown;
}): void {
  program.addHelpText("after", () => {
    const { plugins } = discoverPlugins({ env: Deno.env.toObject(), builtins: false });
    if (plugins.length === 0) return "";
    const rows = plugins.map((p) => `  ${p.id.padEnd(20)} ${p.source}`);
    return `\nPlugin commands (lazyshell <id> <args...>):\n${rows.join("\n")}`;
  });
}
