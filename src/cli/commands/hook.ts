/**
 * `lazyshell hook <state> [--kind K] [JSON]` in the command list and in
 * `lazyshell help hook`. main.ts runs the hook before commander loads (it
 * must start fast and never fail, src/cli/hook.ts), so this entry is what
 * `--help` shows; its action forwards to the same code for completeness.
 */

import { type Command, Option } from "@commander-js/extra-typings";
import { HOOK_KINDS, HOOK_STATES } from "../../ipc/hook_client.ts";

export function registerHook(program: Command): void {
  program
    .command("hook")
    .description(
      "Report the state of the agent running in this session (for agent hooks; always exits 0)",
    )
    .argument("<state>", HOOK_STATES.join(" | "))
    .argument("[json]", "the agent's hook JSON (Codex notify); also read from stdin")
    .addOption(new Option("--kind <kind>", "what a blocked agent waits for").choices(HOOK_KINDS))
    .action(async (state, json, options) => {
      const { hookMain } = await import("../hook.ts");
      const kind = options.kind ? ["--kind", options.kind] : [];
      await hookMain([state, ...kind, ...(json === undefined ? [] : [json])]);
    });
}
