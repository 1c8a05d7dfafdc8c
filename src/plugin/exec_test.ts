import assert from "node:assert/strict";
import { ExecRunner, runCaptured } from "./exec.ts";
import { spawnGroup } from "./procgroup_posix.ts";
import { MAX_EXEC_OUTPUT_BYTES } from "./protocol.ts";

const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };

Deno.test("exec output is kept up to 1 MiB per stream, the rest read and dropped", async () => {
  const outcome = await runCaptured(
    spawnGroup,
    ["sh", "-c", "head -c 2097152 /dev/zero | tr '\\0' o; head -c 10 /dev/zero | tr '\\0' e >&2"],
    { env, signal: new AbortController().signal },
  );
  assert.equal(outcome.code, 0);
  assert.equal(outcome.stdout.length, MAX_EXEC_OUTPUT_BYTES);
  assert.equal(outcome.stderr, "eeeeeeeeee");
  assert.equal(outcome.error, null);
});

Deno.test("a missing program and a cancelled exec are outcomes, not exceptions", async () => {
  const missing = await runCaptured(spawnGroup, ["/nonexistent/tool"], {
    env,
    signal: new AbortController().signal,
  });
  assert.deepEqual(missing, {
    code: null,
    stdout: "",
    stderr: "",
    error: "Command not found: /nonexistent/tool",
  });
  const runner = new ExecRunner(spawnGroup, undefined);
  const running = runner.run({
    type: "exec",
    execId: 1,
    argv: ["sleep", "300"],
    interactive: false,
  }, env);
  runner.cancel(); // the group is already running: SIGTERM ends it
  const cancelled = await running;
  assert.equal(cancelled.error, "Cancelled");
  const interactive = await runner.run(
    { type: "exec", execId: 2, argv: ["vi"], interactive: true },
    env,
  );
  assert.match(interactive.error ?? "", /Interactive exec needs the TUI/);
});
