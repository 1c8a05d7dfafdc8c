/**
 * lazyshell entry point: argv → command, dispatched lazily.
 *
 * Light commands (`hook`, `--version`, and the client: `lazyshell`,
 * `attach`, `ls`, `kill-server`, `restore`, `reload`) must not load commander, zod, yaml or
 * node-pty: agents run hooks synchronously, and a client should start in
 * about a bare Deno start-up; those imports cost ~55 ms
 * (docs/architecture.md). Everything else goes through the commander
 * program in src/cli/program.ts.
 */

import denoJson from "./deno.json" with { type: "json" };

export const VERSION: string = denoJson.version;

async function main(args: string[]): Promise<number> {
  const first = args[0];
  // `hook --help` (a person asking, never an agent's hook): commander's help below.
  const help = (a: string | undefined) => a === "--help" || a === "-h";
  if (first === "hook" && !help(args[1])) {
    // Exits 0 in every case, within a few hundred ms (docs/hooks.md).
    try {
      const { hookMain } = await import("./src/cli/hook.ts");
      await hookMain(args.slice(1));
    } catch { /* a hook never fails */ }
    return 0;
  }
  if (first === "--version" || first === "-V") {
    const { versionLine } = await import("./src/cli/version.ts");
    console.log(versionLine(VERSION));
    return 0;
  }
  // Started by a launcher (an installed lazyshell): remember its stable path, hide it from children.
  const { adoptLauncher } = await import("./src/plugin/self.ts");
  adoptLauncher();
  if (first === "__plugin") {
    // Built-in plugin tabs (docs/plugin-protocol.md): no commander, no node-pty.
    const { runBuiltin } = await import("./plugins/mod.ts");
    return await runBuiltin(args.slice(1));
  }
  if (first === "ctl") {
    // A thin client: no commander (its argv is the verb table's, C2).
    const { runCtl } = await import("./src/ctl/client.ts");
    return await runCtl(args.slice(1));
  }
  // The client (`lazyshell`, `attach`, `ls`, `kill-server`, `restore`, `reload`): no commander, no npm package.
  const { clientCommand } = await import("./src/client/main.ts");
  const client = clientCommand(args);
  if (client) {
    const { runClient } = await import("./src/client/client.ts");
    return await runClient({ ...client, version: VERSION });
  }
  const { runProgram } = await import("./src/cli/program.ts");
  return await runProgram(args, VERSION);
}

/** `-L NAME` first (tmux's habit), then the command; user mistakes are one line, exit 2. */
async function entry(argv: string[]): Promise<number> {
  try {
    if (!argv[0]?.startsWith("-L")) return await main(argv);
    const { serverFlag } = await import("./src/client/main.ts");
    const { name, rest } = serverFlag(argv);
    // Every command below (serve, ctl, the client) reads it from there.
    if (name !== null) Deno.env.set("LAZYSHELL_SERVER", name);
    return await main(rest);
  } catch (error) {
    const { UserError } = await import("./src/errors.ts");
    if (!(error instanceof UserError)) throw error;
    console.error(`lazyshell: ${error.message}`);
    return 2;
  }
}

if (import.meta.main) {
  Deno.exit(await entry(Deno.args));
}
