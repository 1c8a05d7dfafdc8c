import assert from "node:assert/strict";
import { parseConfig } from "../config/config.ts";
import type { RuntimeChange } from "../model/runtime.ts";
import { TEST_SHELL, testEnv, waitFor } from "../session/test_util.ts";
import { VirtualClock } from "../util/virtual_clock.ts";
import { Runtime } from "./runtime.ts";
import { type FaultReport, type Owner, setFaultSink } from "../util/guard.ts";

Deno.test("Runtime: a real session's life reaches subscribers as one ordered change stream", async () => {
  const dir = await Deno.makeTempDir();
  const runtime = new Runtime({
    env: testEnv({ XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir }),
    config: parseConfig(`shell: ${TEST_SHELL}\n`, "config.yml"),
    cwd: dir,
  });
  const changes: RuntimeChange[] = [];
  using _sub = runtime.subscribe((c) => changes.push(c));
  try {
    const session = runtime.createSession({ command: "printf 'hello\\n'; read -r x; exit 3" });
    runtime.store.rename(session.id, "api");
    runtime.arm("api", "ERR");
    await waitFor(session, () => session.visibleLines().some((l) => l.includes("hello")));
    session.write("\r");
    await session.exited;
    runtime.store.remove(session.id);

    assert.deepEqual(
      changes.map((c) => c.seq),
      changes.map((_, i) => runtime.state.seq - changes.length + i + 1),
      "one seq per change, in order",
    );
    const types = changes.map((c) => c.type);
    assert.equal(types[0], "added");
    // Removed, then its watcher goes from the list.
    assert.deepEqual(types.slice(-2), ["removed", "watchers"]);
    assert.deepEqual(runtime.state.watchers, []);
    const updates = changes.flatMap((c) => (c.type === "updated" ? [c.session] : []));
    assert.ok(updates.some((v) => v.name === "api"), "renamed");
    assert.ok(updates.some((v) => v.watcher === "ERR"), "watcher armed");
    assert.ok(updates.some((v) => v.outputAt > 0), "output clock moved");
    const exited = updates.find((v) => v.status === "exited");
    assert.deepEqual([exited?.exitCode, exited?.signal], [3, null]);
    assert.deepEqual(runtime.state.sessions, []);
  } finally {
    await runtime[Symbol.asyncDispose]();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Runtime: broken user manifests are the state's problems", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/lazyshell/agents`, { recursive: true });
  await Deno.writeTextFile(`${dir}/lazyshell/agents/broken.yml`, "name: [\n");
  const runtime = new Runtime({
    env: testEnv({ XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir }),
    config: parseConfig("", "config.yml"),
    cwd: dir,
  });
  try {
    assert.equal(runtime.state.problems.length, 1);
    assert.match(runtime.state.problems[0]!, /broken\.yml/);
  } finally {
    await runtime[Symbol.asyncDispose]();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Runtime: what a program redraws for a resize is not new output (no ●)", async () => {
  const dir = await Deno.makeTempDir();
  // The runtime's clock moves only when the test says (its timers too).
  const clock = new VirtualClock(1_000_000);
  const runtime = new Runtime({
    env: testEnv({ XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir }),
    config: parseConfig(`shell: ${TEST_SHELL}\n`, "config.yml"),
    cwd: dir,
    now: clock.now,
    scheduler: clock.ticker(),
  });
  try {
    const session = runtime.createSession({
      command: "trap 'echo redrawn' WINCH; echo ready; while :; do sleep 0.05; done",
    });
    await waitFor(session, () => session.visibleLines().some((l) => l === "ready"));
    await waitFor(session, () => (runtime.view(session.id)?.outputAt ?? 0) > 0);
    clock.advance(1100); // past the output clock's resolution
    const before = runtime.view(session.id)!.outputAt;
    session.resize(100, 20);
    await waitFor(session, () => session.visibleLines().some((l) => l === "redrawn"));
    assert.equal(runtime.view(session.id)!.outputAt, before);
  } finally {
    await runtime[Symbol.asyncDispose]();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Runtime: a listener that throws is its owner's failure; the others and the session go on", async () => {
  const dir = await Deno.makeTempDir();
  const runtime = new Runtime({
    env: testEnv({ XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir }),
    config: parseConfig(`shell: ${TEST_SHELL}\n`, "config.yml"),
    cwd: dir,
  });
  const heard: FaultReport[] = [];
  setFaultSink((r) => heard.push(r));
  const dropped: string[] = [];
  const owner: Owner = { name: "client-9", fault: (_e, where) => void dropped.push(where) };
  // The failing ones come first: the others must still hear every change and output.
  using _badState = runtime.subscribe(() => {
    throw new Error("state bug");
  }, owner);
  using _badOutput = runtime.onOutput(() => {
    throw new Error("output bug");
  }, owner);
  const outputs: string[] = [];
  const changes: RuntimeChange[] = [];
  using _state = runtime.subscribe((c) => changes.push(c));
  using _output = runtime.onOutput((id) => outputs.push(id));
  try {
    const session = runtime.createSession({ command: "echo one; read -r _; echo two; sleep 30" });
    await waitFor(session, () => session.visibleLines().some((l) => l.includes("one")));
    session.write("\r");
    await waitFor(session, () => session.visibleLines().some((l) => l.includes("two")));
    await waitFor(session, () => outputs.length >= 2, 15_000, "output heard");
    assert.equal(changes[0]?.type, "added");
    assert.ok(dropped.includes("state listener") && dropped.includes("output listener"));
    assert.ok(heard.every((r) => r.owner === "client-9"), heard.map((r) => r.owner).join());
  } finally {
    setFaultSink(null);
    await runtime[Symbol.asyncDispose]();
    await Deno.remove(dir, { recursive: true });
  }
});
