/** The TUI's usage-limit keys against a real runtime (a real PTY): what each sets and says. */

import assert from "node:assert/strict";
import { parseConfig } from "../config/config.ts";
import { Runtime } from "../runtime/runtime.ts";
import { testEnv } from "../session/test_util.ts";
import { runLimitEffect } from "./limit_effects.ts";

Deno.test("P sets the session's or its group's policy and says which is in force; C without a limit says so", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lzs-limit-keys-" });
  await using runtime = new Runtime({
    env: testEnv({ XDG_CONFIG_HOME: dir }),
    config: parseConfig("shell: /bin/sh\n", "config.yml"),
    cwd: dir,
  });
  try {
    const id = runtime.createSession({ name: "cl2", group: "night" }).id;
    assert.equal(
      runLimitEffect(runtime, { type: "limit-policy", id, group: "night", policy: "auto" }),
      "Group night: resume at limits auto; cl2: auto (group night)",
    );
    assert.equal(
      runLimitEffect(runtime, { type: "limit-policy", id, group: null, policy: "off" }),
      "cl2: resume at limits off (session)",
    );
    assert.deepEqual(runtime.resumes.policy(id), { policy: "off", from: "session" });
    assert.equal(
      runLimitEffect(runtime, { type: "limit-policy", id, group: null, policy: null }),
      "cl2: resume at limits auto (group night)",
    );
    assert.equal(runLimitEffect(runtime, { type: "cancel-limit", id }), "No pending resume");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
