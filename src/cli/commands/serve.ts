/** `lazyshell serve [--project FILE]`: the headless runtime until SIGTERM (SPEC I1). */

import type { Command } from "@commander-js/extra-typings";

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description("Run sessions, hooks, detection and the control API without a TUI, until SIGTERM")
    .option(
      "--project <file>",
      "start the sessions of this project file (default: ./lazyshell.yml)",
    )
    .option("-y, --yes", "trust ./lazyshell.yml as it is now (see `lazyshell trust`)")
    .action(async (options) => {
      const { serve } = await import("../serve.ts");
      process.exitCode = await serve({ project: options.project, yes: options.yes });
    });
}
