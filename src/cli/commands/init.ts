/**
 * `lazyshell init bash|zsh|fish` prints the shell integration (N2, see
 * ../init_shells.ts). `init --agents` (H2) is the hooks part, added beside
 * the shell part: each lives in its own module, this file only dispatches.
 */

import type { Command } from "@commander-js/extra-typings";
import { UserError } from "../../errors.ts";
import { isShellName, SHELLS, shellSnippet } from "../init_shells.ts";

export function registerInit(program: Command): void {
  program
    .command("init")
    .description(`Print setup to paste: shell integration (${SHELLS.join(", ")}) or --agents hooks`)
    .argument("[shell]", `shell integration for ${SHELLS.join(" | ")}`)
    .option(
      "--agents",
      "print agent hook setup instead (claude, codex, opencode; name one to get only it)",
    )
    .action(async (shell, options) => {
      if (options.agents) {
        const { agentsText } = await import("../init_agents.ts");
        const { stableCommand } = await import("../../plugin/self.ts");
        const self = stableCommand();
        // Built first: an unknown agent is its one-line error, with no warning before it.
        const text = agentsText(shell, self.command);
        if (self.cache !== null && shell !== "opencode") {
          console.error(
            `lazyshell: warning: these hooks run ${self.cache}, inside a package-manager cache that may be emptied: install the lazyshell command (README: Install) and print them again with it`,
          );
        }
        console.log(text);
        return;
      }
      if (shell === undefined) {
        throw new UserError(`Say which shell: lazyshell init ${SHELLS.join("|")}`);
      }
      if (!isShellName(shell)) {
        throw new UserError(`Unknown shell: ${shell} (expected ${SHELLS.join(", ")})`);
      }
      console.log(shellSnippet(shell).trimEnd());
    });
}
