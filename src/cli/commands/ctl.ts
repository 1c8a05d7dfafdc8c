/**
 * `lazyshell ctl <verb> ...` (C2). main.ts dispatches `ctl` straight to the
 * thin client (its argv belongs to the verb table, not to commander); this
 * registration lists it in `lazyshell --help` and forwards the same way.
 */

import type { Command } from "@commander-js/extra-typings";

export function registerCtl(program: Command): void {
  program
    .command("ctl")
    .description("Drive a running lazyshell through its control socket (lazyshell ctl --help)")
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument("[verb-and-arguments...]")
    .action(async (args) => {
      const { runCtl } = await import("../../ctl/client.ts");
      process.exitCode = await runCtl(args);
    });
}
