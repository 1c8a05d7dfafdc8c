/**
 * The client commands in `--help`: `attach`, `ls`, `reload`, `kill-server`, `restore` (main.ts
 * runs them before commander loads; these entries only document them and
 * the `-L NAME` option).
 */

import type { Command } from "@commander-js/extra-typings";
import type { ClientMode } from "../../wire/protocol.ts";

export function registerClient(program: Command, context: { version: string }): void {
  const client = (mode: ClientMode) => async () => {
    const { runClient } = await import("../../client/client.ts");
    process.exitCode = await runClient({ mode, start: false, version: context.version });
  };
  program.addHelpText(
    "after",
    "\n`lazyshell` alone attaches to your server, starting it in the background when none runs.\n" +
      "-L NAME (or $LAZYSHELL_SERVER) in front of any command picks another, independent server.\n" +
      "-H DEST in front of attach, ls, ctl, restore, reload or kill-server runs it on another host\n" +
      "over ssh (DEST: dev, me@box, ssh://me@box:2222 or a hosts: name; docs/remote.md).",
  );
  program
    .command("attach")
    .description("Attach to the running server")
    .option("-t <target>", "show this session first (an id or a name)")
    .action(client("attach"));
  program.command("ls").description("List the server's sessions, one a line").action(client("ls"));
  program
    .command("restore")
    .description(
      "Restore the sessions a previous server saved (docs/restore.md): without arguments, " +
        "list them",
    )
    .argument("[names...]", "saved sessions to restore")
    .option("--all", "restore every saved session")
    .option("--forget", "drop the named (or, alone, every) saved session instead")
    .action(async (names, opts) => {
      const { runClient } = await import("../../client/client.ts");
      process.exitCode = await runClient({
        mode: "restore",
        start: true,
        version: context.version,
        restore: { all: opts.all === true, forget: opts.forget === true, names },
      });
    });
  program
    .command("reload")
    .description(
      "Read config.yml, the agent manifests and the project file again in the running server; " +
        "on any problem keep the running config (also on SIGHUP to the server)",
    )
    .action(client("reload"));
  program
    .command("web")
    .description(
      "Turn on the running server's web view and print its URL (token included) and a QR code " +
        "(docs/web.md)",
    )
    .option("--rotate", "a new token: the old URL and every page opened with it stop working")
    .option("--off", "turn the web view off")
    .action(async (opts) => {
      const { runClient } = await import("../../client/client.ts");
      process.exitCode = await runClient({
        mode: "web",
        start: false,
        version: context.version,
        web: { rotate: opts.rotate === true, off: opts.off === true, qr: false },
      });
    });
  program
    .command("kill-server")
    .description("End the server and every session it runs")
    .action(client("kill-server"));
}
