/** `lazyshell trust [FILE]`: trust a project file as it is now (runtime/project_trust.ts). */

import type { Command } from "@commander-js/extra-typings";

export function registerTrust(program: Command): void {
  program
    .command("trust")
    .argument("[file]", "the project file", "lazyshell.yml")
    .description("Trust a project file as it is now: `lazyshell` and `serve` start it unasked")
    .action(async (file) => {
      const { readProject } = await import("../../config/project_load.ts");
      const { TrustStore } = await import("../../config/trust.ts");
      const { describeProject } = await import("../../runtime/project_trust.ts");
      // Validated first: a file that cannot start is not worth trusting.
      const { project, text } = readProject({ cwd: Deno.cwd(), file })!;
      new TrustStore(Deno.env.toObject()).remember(project.file, text, "allow");
      console.log(
        describeProject(project).replace(/^.*\n/, `Trusted ${project.file}; it starts:\n`),
      );
    });
}
