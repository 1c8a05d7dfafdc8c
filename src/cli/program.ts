/**
 * The commander program: one file per command under commands/, registered
 * from the list below. Errors a user can cause are UserErrors: one line on
 * stderr, exit 2, no stack trace (SPEC I3).
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
  registerPluginHelp,
];

export function buildProgram(version: string): Command {
  const program = new Command("lazyshell")
    .description("Run shells and AI coding agents side by side; see which one needs you")
    .version(`lazyshell ${version}`, "-V, --version")
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(text) });
  for (const register of COMMANDS) register(program, { version });
  return program;
}

export async function runProgram(args: string[], version: string): Promise<number> {
  const program = buildProgram(version);
  try {
    // `lazyshell <plugin-id> <args...>` (P1): a user plugin, when no command has that name.
    const names = program.commands.flatMap((c) => [c.name(), ...c.aliases()]);
    const plugin = await runPluginCommand(args, names);
    if (plugin !== null) return plugin;
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
