import assert from "node:assert/strict";
import { parseEnviron, processEnvironment } from "./session_env.ts";

Deno.test("environ text is split into variables", () => {
  assert.deepEqual(parseEnviron("A=1\0B=x=y\0\0C=\0junk\0"), { A: "1", B: "x=y", C: "" });
});

Deno.test("a child's environment is read from the OS", async () => {
  const child = new Deno.Command("sleep", {
    args: ["30"],
    env: { LAZYSHELL_ENV_PROBE: "s3cret" },
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    // Until the child has exec'd, /proc shows the environment it forked with.
    for (
      let i = 0;
      i < 3000 && processEnvironment(child.pid)?.LAZYSHELL_ENV_PROBE === undefined;
      i++
    ) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(processEnvironment(child.pid)?.LAZYSHELL_ENV_PROBE, "s3cret");
  } finally {
    child.kill("SIGKILL");
    await child.status;
  }
});
