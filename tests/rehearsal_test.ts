/**
 * The first attach rehearsed (src/server/rehearsal.ts) on a real AttachServer
 * with real PTY sessions: it draws a frame of them as a client would and
 * changes nothing a client's attach changes — the sessions' sizes under a
 * window_size where a shown pane resizes them, the runtime's state (focus,
 * what clients show), the count of clients — and runs once.
 */

import assert from "node:assert/strict";
import { parseConfig } from "../src/config/config.ts";
import type { RuntimeChange } from "../src/model/runtime.ts";
import { Runtime } from "../src/runtime/runtime.ts";
import { AttachServer } from "../src/server/server.ts";
import { TEST_SHELL, testEnv, waitFor } from "../src/session/test_util.ts";

Deno.test("a rehearsed attach draws its frame and changes nothing a client's attach would", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lzs-rehearsal-" });
  const env = testEnv({ XDG_CONFIG_HOME: `${dir}/c`, XDG_DATA_HOME: `${dir}/d` });
  const runtime = new Runtime({
    env,
    config: parseConfig(`shell: ${TEST_SHELL}\nwindow_size: smallest\n`, "config.yml"),
    cwd: dir,
    cols: 50,
    rows: 10,
  });
  const logged: string[] = [];
  const server = await AttachServer.listen({
    runtime,
    name: "rehearsal",
    socket: `${dir}/s.sock`,
    version: "test",
    log: (line) => logged.push(line),
    plugins: false,
  });
  try {
    const sessions = ["one", "two"].map((name) =>
      runtime.createSession({ name, command: `echo ${name}-screen; exec cat` })
    );
    for (const s of sessions) {
      await waitFor(s, () => s.visibleLines().some((l) => l.includes("-screen")));
    }
    const changes: RuntimeChange[] = [];
    using _sub = runtime.subscribe((c) => changes.push(c));
    const state = runtime.state;
    assert.equal(await server.rehearse({ cols: 120, rows: 32 }), true, "a frame was drawn");
    // Under `smallest` a client showing an 89×30 pane resizes the sessions to it.
    for (const s of sessions) assert.deepEqual([s.cols, s.rows], [50, 10], s.name);
    assert.equal(runtime.state, state);
    assert.deepEqual(changes, []);
    assert.equal(server.clientCount, 0);
    assert.deepEqual(logged, []);
    assert.equal(await server.rehearse({ cols: 120, rows: 32 }), false, "once");
  } finally {
    await server[Symbol.asyncDispose]();
    await runtime[Symbol.asyncDispose]();
    Deno.removeSync(dir, { recursive: true });
  }
});
