/**
 * How to run lazyshell itself (DESIGN §1): the compiled binary is
 * `Deno.execPath()`; under `deno run` it is `deno run -A <abs main.ts>`.
 * Built-in plugins (`__plugin <id>`) and printed hook commands use this.
 */

/** argv prefix that starts this lazyshell; append the subcommand and its arguments. */
export function selfCommand(): string[] {
  if (Deno.build.standalone) return [Deno.execPath()];
  const main = new URL("../../main.ts", import.meta.url);
  return [Deno.execPath(), "run", "-A", "--no-prompt", "--quiet", main.pathname];
}
