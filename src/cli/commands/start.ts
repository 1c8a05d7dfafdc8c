/** `lazyshell` with no command: the TUI (src/tui/main.ts). */

import type { Command } from "@commander-js/extra-typings";

export function registerStart(program: Command): void {
  program
    .command("start", { isDefault: true, hidden: true })
    .description("Start the TUI")
    .option(
      "--project <file>",
      "start the sessions of this project file (default: ./lazyshell.yml)",
    )
    .option("-y, --yes", "trust ./lazyshell.yml as it is now (no question)")
    .action(async (options) => {
      const { runTui } = await import("../../tui/main.ts");
      process.exitCode = await runTui({ project: options.project, yes: options.yes });
    });
}
