/**
 * lazyshell entry point: argv → command, dispatched lazily.
 *
 * Light commands (`hook`, `--version`) must not load commander, zod, yaml
 * or node-pty: agents run hooks synchronously, and those imports cost
 * ~55 ms of start-up (PLATFORM.md §6). Everything else goes through the
 * commander program in src/cli/program.ts.
 */

import denoJson from "./deno.json" with { type: "json" };

export const VERSION: string = denoJson.version;

async function main(args: string[]): Promise<number> {
  const first = args[0];
  if (first === "hook") {
    // Exits 0 in every case, within a few hundred ms (SPEC H1).
    try {
      const { hookMain } = await import("./src/cli/hook.ts");
      await hookMain(args.slice(1));
    } catch { /* a hook never fails */ }
    return 0;
  }
  if (first === "__plugin") {
    // Built-in plugin tabs (DESIGN §7): no commander, no node-pty.
    const { runBuiltin } = await import("./plugins/mod.ts");
    return await runBuiltin(args.slice(1));
  }
  if (first === "--version" || first === "-V") {
    console.log(`lazyshell ${VERSION}`);
    return 0;
  }
  if (first === "ctl") {
    // A thin client: no commander (its argv is the verb table's, C2).
    const { runCtl } = await import("./src/ctl/client.ts");
    return await runCtl(args.slice(1));
  }
  const tui = args.length === 0 || (args.length === 2 && first === "--project") ||
    (args.length === 1 && first!.startsWith("--project="));
  // The TUI: its first frame before commander and the runtime load (issue #5, ≤ 300 ms).
  const splash = tui ? await import("./src/tui/splash.ts") : null;
  splash?.showSplash();
  try {
    const { runProgram } = await import("./src/cli/program.ts");
    return await runProgram(args, VERSION);
  } finally {
    splash?.leaveSplash();
  }
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
