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
  // An attach loads the client's modules beside the launcher's: one wait, not three in a row
  // (docs/architecture.md, Start-up). None of them reads the environment as it loads.
  const attaching = first === undefined || first === "attach";
  const client = attaching ? loadClient() : null;
  // Started by a launcher (an installed lazyshell): remember its stable path, hide it from children.
  const { adoptLauncher } = await import("./src/plugin/launcher.ts");
  adoptLauncher();
  if (first === "__plugin") {
    // Built-in plugin tabs (docs/plugin-protocol.md): no commander, no node-pty.
    const { runBuiltin } = await import("./plugins/mod.ts");
    return await runBuiltin(args.slice(1));
  }
  if (first === "ctl" && args[1] === "list" && args.includes("--all-hosts")) {
    // This host's list and every hosts: entry's, over ssh (docs/remote.md).
    const { runAllHosts } = await import("./src/remote/all_hosts.ts");
    const { printable } = await import("./src/model/printable.ts");
    return await runAllHosts(args.slice(2), Deno.env.toObject(), {
      out: (t) => console.log(printable(t)),
      err: (t) => console.error(printable(t)),
    });
  }
  if (first === "ctl") {
    // A thin client: no commander (its argv is the verb table's, C2).
    const { runCtl } = await import("./src/ctl/client.ts");
    return await runCtl(args.slice(1));
  }
  if (first === "bridge") {
    // Run over ssh by `lazyshell -H` on another host (docs/remote.md): hidden.
    const { runBridge } = await import("./src/remote/bridge.ts");
    return await runBridge(args.slice(1), VERSION);
  }
  // The client (`lazyshell`, `attach`, `ls`, `kill-server`, `restore`, `reload`): no commander, no npm package.
  const { clientCommand } = await (client ?? import("./src/client/main.ts"));
  const command = clientCommand(args);
  if (command) {
    const { runClient } = await (client ?? import("./src/client/client.ts"));
    return await runClient({ ...command, version: VERSION });
  }
  const { runProgram } = await import("./src/cli/program.ts");
  return await runProgram(args, VERSION);
}

/** The client's argv and the client itself, loaded together. */
async function loadClient(): Promise<
  & Pick<typeof import("./src/client/main.ts"), "clientCommand">
  & Pick<
    typeof import("./src/client/client.ts"),
    "runClient"
  >
> {
  const [{ clientCommand }, { runClient }] = await Promise.all([
    import("./src/client/main.ts"),
    import("./src/client/client.ts"),
  ]);
  return { clientCommand, runClient };
}

/**
 * `-L NAME` and `-H DEST` first (tmux's habit), in either order, then the command; user
 * mistakes are one line, exit 2.
 */
async function entry(argv: string[]): Promise<number> {
  try {
    if (!argv[0]?.startsWith("-L") && !argv[0]?.startsWith("-H")) return await main(argv);
    const { serverFlag } = await import("./src/client/main.ts");
    let rest = argv;
    let dest: string | null = null;
    for (let i = 0; i < 2; i++) {
      if (rest[0]?.startsWith("-L")) {
        const flag = serverFlag(rest);
        rest = flag.rest;
        // Every command below (serve, ctl, the client, -H's bridge) reads it from there.
        if (flag.name !== null) Deno.env.set("LAZYSHELL_SERVER", flag.name);
      } else if (rest[0]?.startsWith("-H") && dest === null) {
        // Loaded for -H only: `-L NAME` alone does not pay for the remote client.
        const { hostFlag } = await import("./src/remote/main.ts");
        const flag = hostFlag(rest);
        rest = flag.rest;
        dest = flag.dest;
      }
    }
    if (dest !== null) {
      const { runRemote } = await import("./src/remote/main.ts");
      return await runRemote(dest, rest, VERSION);
    }
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
