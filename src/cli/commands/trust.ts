/**
 * `lazyshell trust [FILE]`: trust a project file as it is now
 * (runtime/project_trust.ts). `--ask` is what a client runs before it
 * starts a server in a folder with a `lazyshell.yml`: silent when the file
 * is trusted as it is, otherwise it shows what the file starts and asks on
 * the terminal; exit 0 to start it, 1 not to.
 */

import type { Command } from "@commander-js/extra-typings";

export function registerTrust(program: Command): void {
  program
    .command("trust")
    .argument("[file]", "the project file", "lazyshell.yml")
    .option("--ask", "ask on the terminal unless it is trusted as it is (exit 0: start it)")
    .description("Trust a project file as it is now: `lazyshell` and `serve` start it unasked")
    .action(async (file, options) => {
      const { readProject } = await import("../../config/project_load.ts");
      const { TrustStore } = await import("../../config/trust.ts");
      const { describeProject } = await import("../../runtime/project_trust.ts");
      // Validated first: a file that cannot start is not worth trusting.
      const { project, text } = readProject({ cwd: Deno.cwd(), file })!;
      const store = new TrustStore(Deno.env.toObject());
      if (options.ask) {
        const previous = store.answer(project.file, text);
        if (previous === "allow") return;
        if (previous === "deny") {
          console.error(
            `lazyshell: not starting ${project.file}: you said no to it as it is ` +
              `(\`lazyshell trust ${project.file}\` trusts it)`,
          );
          process.exitCode = 1;
          return;
        }
        console.log(describeProject(project));
        const yes = confirm("Start these sessions?");
        store.remember(project.file, text, yes ? "allow" : "deny");
        if (!yes) process.exitCode = 1;
        return;
      }
      store.remember(project.file, text, "allow");
      console.log(
        describeProject(project).replace(/^.*\n/, `Trusted ${project.file}; it starts:\n`),
      );
    });
}
