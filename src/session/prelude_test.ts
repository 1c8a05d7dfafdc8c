/** A setup command run by a real `sh`: shown, run, then the command; a failure ends it there. */

import assert from "node:assert/strict";
import { withPrelude } from "./prelude.ts";

/** The prelude's line is dimmed, a failure red. */
const [DIM, RED, PLAIN] = ["\x1b[2m", "\x1b[31m", "\x1b[0m"];

async function run(script: string): Promise<{ code: number; out: string }> {
  const { code, stdout } = await new Deno.Command("/bin/sh", {
    args: ["-c", script],
    env: { SHELL: "/bin/sh" },
    // The shell a prelude ends in reads its commands here: none.
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).output();
  return { code, out: new TextDecoder().decode(stdout) };
}

Deno.test("the prelude is shown and run, then the command in its place (its exit code the session's)", async () => {
  const { code, out } = await run(
    withPrelude('echo "it\'s set up"', "sh -c 'echo command; exit 7'"),
  );
  assert.equal(out, `${DIM}$ echo "it's set up"${PLAIN}\nit's set up\ncommand\n`);
  assert.equal(code, 7);
});

Deno.test("a failing prelude ends the session with its code; the command never runs", async () => {
  const { code, out } = await run(withPrelude("exit 3", "echo command"));
  assert.equal(
    out,
    `${DIM}$ exit 3${PLAIN}\n${RED}lazyshell: the setup command failed (exit 3)${PLAIN}\n`,
  );
  assert.equal(code, 3);
});

Deno.test("with no command the shell runs after the prelude", async () => {
  const { code, out } = await run(withPrelude("true", "") + "\necho not reached");
  assert.equal(out, `${DIM}$ true${PLAIN}\n`);
  assert.equal(code, 0);
});
