/**
 * The frame the server draws ahead (warm_draw.ts) draws the sessions as a
 * client would and changes nothing: real sessions in PTYs, a window_size
 * under which a TUI that told the runtime what it shows would resize them.
 */

import assert from "node:assert/strict";
import { parseConfig } from "../config/config.ts";
import type { RuntimeChange } from "../model/runtime.ts";
import { Runtime } from "../runtime/runtime.ts";
import { TEST_SHELL, testEnv, waitFor } from "../session/test_util.ts";
import { warmDraw } from "./warm_draw.ts";

Deno.test("warmDraw: draws the selected session's screen and the list, changes nothing", async () => {
  const dir = await Deno.makeTempDir();
  await using runtime = new Runtime({
    env: testEnv({ XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir }),
    config: parseConfig(`shell: ${TEST_SHELL}\nwindow_size: smallest\n`, "config.yml"),
    cwd: dir,
    cols: 50,
    rows: 10,
  });
  try {
    const first = runtime.createSession({ command: "echo first-screen; exec cat" });
    const second = runtime.createSession({ command: "echo second-screen; exec cat" });
    runtime.store.rename(second.id, "second-one");
    for (const s of [first, second]) {
      await waitFor(s, () => s.visibleLines().some((l) => l.includes("-screen")));
    }
    const changes: RuntimeChange[] = [];
    using _sub = runtime.subscribe((c) => changes.push(c));
    const state = runtime.state;
    const written = warmDraw(runtime, 120, 32);
    assert.match(written, /first-screen/, "the selected session's screen");
    assert.match(written, /second-one/, "the session list");
    assert.doesNotMatch(written, /second-screen/, "only the selected one's screen");
    // Told nothing: under `smallest` a shown 89×30 pane would have resized both to it.
    for (const s of [first, second]) assert.deepEqual([s.cols, s.rows], [50, 10], s.id);
    assert.equal(runtime.state, state);
    assert.deepEqual(changes, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
