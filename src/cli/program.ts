/**
 * The commander program: one file per command under commands/, registered
 * from the list below. Errors a user can cause are UserErrors: one line on
 * stderr, exit 2, no stack trace (docs/architecture.md, Conventions).
 */

import { Command, CommanderError } from "@commander-js/extra-typings";
import { ConfigError, ManifestError, messageOf, UserError } from "../errors.ts";
import { registerClient } from "./commands/attach.ts";
import { registerInit } from "./commands/init.ts";
import { registerServe } from "./commands/serve.ts";
import { registerCtl } from "./commands/ctl.ts";
import { registerDoctor } from "./commands/doctor.ts";
import { registerPluginHelp, runPluginCommand } from "./commands/plugin_passthrough.ts";
import { registerDetect } from "./commands/detect.ts";
import { registerTrust } from "./commands/trust.ts";
import { registerHook } from "./commands/hook.ts";
import { discoverPlugins, type PluginEntry } from "../plugin/discovery.ts";
import { didYouMean } from "../util/nearest.ts";

export type Register = (program: Command, context: { version: string }) => void;

/** Every command module; each adds its subcommand(s) to the program. */
const COMMANDS: readonly Register[] = [
  registerClient,
  registerInit,
  registerServe,
  registerCtl,
  registerDoctor,
  registerDetect,
  registerTrust,
  registerHook,
  registerPluginHelp,
];

export function buildProgram(version: string): Command {
  const program = new Command("lazyshell")
    .description("Run shells and AI coding agents side by side; see which one needs you")
    .usage("[-L NAME] [--project <file>]  |  lazyshell [-L NAME] <command> [options]")
    .version(`lazyshell ${version}`, "-V, --version")
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(text) });
  for (const register of COMMANDS) register(program, { version });
  // `lazyshell --project FILE` is the client's (src/client/main.ts), before commander.
  program.addHelpText(
    "after",
    "\nlazyshell --project <file>     start the server with this project file's sessions\n" +
      "                               (default: ./lazyshell.yml when present)",
  );
  return program;
}

/** What `args` ask for when their first word is no command: a plugin's help or a mistake. */
export type Lookup =
  | { readonly type: "plugin-help"; readonly text: string }
  | { readonly type: "unknown"; readonly message: string }
  | null;

/**
 * `lazyshell <word>` where the word is no command and no plugin, and
 * `lazyshell help <word>` (a plugin's help is its usage line). Decided
 * here, not by the hidden default command, which would call the word an
 * argument it does not take. `names`: every command and alias; `visible`:
 * the ones --help lists.
 */
export function lookupCommand(
  args: readonly string[],
  names: readonly string[],
  visible: readonly string[],
  plugins: readonly Pick<PluginEntry, "id" | "source">[],
): Lookup {
  const help = args[0] === "help";
  const word = help ? args[1] : args[0];
  if (word === undefined || word.startsWith("-") || names.includes(word) || word === "help") {
    return null;
  }
  const plugin = plugins.find((p) => p.id === word);
  if (plugin && !help) return null;
  if (plugin) {
    return {
      type: "plugin-help",
      text: `Usage: lazyshell ${word} [args...]\n\nA plugin: runs ${plugin.source} with these ` +
        `arguments (stdin, stdout, stderr and exit code passed through).\nIts tab and its ` +
        `config section ${word}: are described in docs/plugin-protocol.md.`,
    };
  }
  const known = [...visible, ...(help ? [] : ["help"]), ...plugins.map((p) => p.id)];
  const near = didYouMean(word, known);
  return {
    type: "unknown",
    message: `Unknown command: ${word}${near || ": see lazyshell --help"}`,
  };
}

export async function runProgram(args: string[], version: string): Promise<number> {
  const program = buildProgram(version);
  try {
    // `lazyshell <plugin-id> <args...>` (P1): a user plugin, when no command has that name.
    const names = program.commands.flatMap((c) => [c.name(), ...c.aliases()]);
    const plugin = await runPluginCommand(args, names);
    if (plugin !== null) return plugin;
    const lookup = lookupCommand(
      args,
      names,
      program.createHelp().visibleCommands(program).map((c) => c.name()),
      discoverPlugins({ env: Deno.env.toObject(), builtins: false }).plugins,
    );
    if (lookup?.type === "unknown") throw new UserError(lookup.message);
    if (lookup?.type === "plugin-help") {
      console.log(lookup.text);
      return 0;
    }
    await program.parseAsync(args, { from: "user" });
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : 2;
    }
    if (
      error instanceof UserError || error instanceof ConfigError || error instanceof ManifestError
    ) {
      console.error(`lazyshell: ${error.message}`);
      return 2;
    }
    console.error(`lazyshell: internal error: ${messageOf(error)}`);
    if (error instanceof Error && error.stack) console.error(error.stack);
    return 1;
  }
}
