/**
 * Test sessions never depend on the machine's shell set-up: a
 * session started the way tests start them reads no rc file and shows the
 * fixed prompt, through a SessionStore and through a Runtime alike.
 */

import assert from "node:assert/strict";
import { parseConfig } from "../config/config.ts";
import { Runtime } from "../runtime/runtime.ts";
import { SessionStore } from "./store.ts";
import { screenText, TEST_SHELL, testEnv, waitFor } from "./test_util.ts";
import type { Session } from "./session.ts";

/** A HOME whose rc files would announce themselves (and change the prompt). */
async function noisyHome(): Promise<string> {
  const home = await Deno.makeTempDir();
  const rc = "echo RC-FILE-READ; PS1='rc> '\n";
  for (const file of [".bashrc", ".bash_profile", ".profile"]) {
    await Deno.writeTextFile(`${home}/${file}`, rc);
  }
  return home;
}

async function firstScreen(session: Session): Promise<string> {
  session.write("echo ready-$((6*7))\r");
  await waitFor(session, () => /^ready-42$/m.test(screenText(session)), 15_000, "ready");
  return screenText(session);
}

Deno.test("a test session reads no rc file and prompts '$ ' (SessionStore, Runtime)", async () => {
  const home = await noisyHome();
  try {
    const env = testEnv({ HOME: home, BASH_ENV: `${home}/.bashrc` });
    assert.equal(env.SHELL, TEST_SHELL);
    await using store = new SessionStore({ env, cols: 80, rows: 10 });
    const viaStore = await firstScreen(store.create());
    await using runtime = new Runtime({ env, config: parseConfig("", "config.yml"), cwd: home });
    const viaRuntime = await firstScreen(runtime.createSession());
    for (const screen of [viaStore, viaRuntime]) {
      assert.doesNotMatch(screen, /RC-FILE-READ|rc> /);
      assert.match(screen, /^\$ echo ready-\$\(\(6\*7\)\)$/m);
    }
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
