/**
 * `lazyshell serve [--project FILE]`: the lasting server in the foreground
 * (src/server/main.ts), until SIGTERM, `kill-server` or a client's quit.
 */

import type { Command } from "@commander-js/extra-typings";

export function registerServe(program: Command, context: { version: string }): void {
  program
    .command("serve")
    .description(
      "Run the server in the foreground: sessions, hooks, detection, notifications, the control " +
        "API and the attach socket, until SIGTERM or kill-server",
    )
    .option(
      "--project <file>",
      "start the sessions of this project file (default: ./lazyshell.yml)",
    )
    .option("--no-project", "start no project file")
    .option("-y, --yes", "trust the nearest lazyshell.yml as it is now (see `lazyshell trust`)")
    .action(async (options) => {
      const { runServer } = await import("../../server/main.ts");
      process.exitCode = await runServer({
        project: typeof options.project === "string" ? options.project : undefined,
        yes: options.yes,
        noProject: options.project === false,
        version: context.version,
      });
    });
}
