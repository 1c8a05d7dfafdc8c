import assert from "node:assert/strict";
import { parseConfig } from "../config/config.ts";
import { TEST_SHELL, testEnv, waitFor } from "../session/test_util.ts";
import { readOnlyRuntime } from "./read_only.ts";
import { Runtime } from "./runtime.ts";

Deno.test("readOnlyRuntime: reads the runtime's state and sessions; acts on nothing, calls no listener", async () => {
  const dir = await Deno.makeTempDir();
  await using runtime = new Runtime({
    env: testEnv({ XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir }),
    config: parseConfig(`shell: ${TEST_SHELL}\nwindow_size: smallest\n`, "config.yml"),
    cwd: dir,
    cols: 50,
    rows: 10,
  });
  try {
    const session = runtime.createSession({ name: "real", command: "echo up; exec cat" });
    await waitFor(session, () => session.visibleLines().includes("up"));
    const view = readOnlyRuntime(runtime);
    assert.equal(view.state, runtime.state);
    assert.equal(view.config, runtime.config);
    assert.equal(view.view(session.id)?.name, "real");
    assert.equal(view.sessions.get(session.id), session);
    assert.deepEqual(view.sessions.list().map((s) => s.id), [session.id]);

    let heard = 0;
    using _a = view.subscribe(() => heard++);
    using _b = view.onOutput(() => heard++);
    const state = runtime.state;
    view.setFocus({ selected: session.id, terminal: true }, "someone");
    view.show("someone", new Map([[session.id, { cols: 90, rows: 30 }]]));
    view.resizeFor("someone", 90, 30);
    view.claimSize(session.id, "someone", 90, 30);
    view.arm(session.id, "x");
    assert.equal(view.createSession({ name: "new" }), undefined);
    assert.equal(view.sessions.create({ name: "new" }), undefined);
    view.sessions.rename(session.id, "renamed");
    view.sessions.kill(session.id);
    assert.throws(() => Object.assign(view, { config: null }));
    assert.equal(runtime.state, state);

    // Output and the changes it brings reach no listener given to the view.
    session.write("typed\r");
    await waitFor(session, () => session.visibleLines().includes("typed"));
    assert.equal(heard, 0);
    assert.deepEqual([session.cols, session.rows, session.name], [50, 10, "real"]);
    assert.equal(runtime.sessions.list().length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
