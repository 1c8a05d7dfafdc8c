/** `lazyshell` with no command: the TUI (until it lands, a plain attach to one shell). */

import type { Command } from "@commander-js/extra-typings";

export function registerStart(program: Command): void {
  program
    .command("start", { isDefault: true, hidden: true })
    .description("Start the TUI")
    .action(async () => {
      const { attach } = await import("../attach.ts");
      process.exitCode = await attach();
    });
}
