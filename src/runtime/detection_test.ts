/**
 * The DetectionHub on real PTY sessions: a bash script named `claude` (so
 * the process table names it, S4) drawing Claude Code's UI, and a plain
 * shell declaring a state over OSC 7501.
 */

import assert from "node:assert/strict";
import { SessionStore } from "../session/store.ts";
import { TEST_SHELL, testEnv, waitFor, waitForText } from "../session/test_util.ts";
import { BLOCKER_STALE_MS } from "../detect/arbiter.ts";
import type { Session } from "../session/session.ts";
import { VirtualClock } from "../util/virtual_clock.ts";
import { loadCatalog } from "./catalog.ts";
import { DetectionHub } from "./detection.ts";
import { type WatchedHub, watchedHub } from "./test_util.ts";

const catalog = await loadCatalog({ userDir: null });
const env = testEnv();

const PERMISSION = [
  "● Bash(touch lab-file.txt)",
  "  ⎿  Waiting…",
  "────────",
  " Bash command",
  " touch lab-file.txt",
  " Do you want to proceed?",
  " ❯ 1. Yes",
  "   2. No",
  "",
  " Esc to cancel · Tab to amend",
].join("\\r\\n");
const WORKING =
  "✽ Whirring… (3s · ↓ 9 tokens)\\r\\n\\r\\n❯ \\r\\n  ⏸ manual mode on · esc to interrupt";
const IDLE =
  "  ⎿  Interrupted · What should Claude do instead?\\r\\n\\r\\n❯ \\r\\n  ? for shortcuts";

/** Writes an executable `claude` script: each step waits for a line on stdin, clears, prints. */
async function fakeClaude(dir: string, screens: string[]): Promise<string> {
  const steps = screens.slice(1).map((s) => `read -r _; printf '\\033[2J\\033[H${s}'`).join("\n");
  const path = `${dir}/claude`;
  await Deno.writeTextFile(
    path,
    `#!/bin/bash\nprintf '\\033[2J\\033[H${screens[0]}'\n${steps}\nsleep 30\n`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

/** A hub on the process's clock, or on `clock` (its timers run only when the test moves it). */
function hubFor(store: SessionStore, clock?: VirtualClock): WatchedHub {
  return watchedHub(store, catalog, clock ? { now: clock.now, scheduler: clock.ticker() } : {});
}

/** Resolves once the hub reports `want` for the session (state events only). */
function until(
  watch: WatchedHub,
  session: Session,
  want: (h: DetectionHub) => boolean,
  ms = 30_000,
) {
  const hub = watch.hub;
  return new Promise<void>((resolve, reject) => {
    const check = () => {
      if (!want(hub)) return;
      clearTimeout(timer);
      sub[Symbol.dispose]();
      resolve();
    };
    const timer = setTimeout(() => {
      sub[Symbol.dispose]();
      reject(
        new Error(
          `timed out; status ${JSON.stringify(hub.status(session.id))}; screen:\n${
            session.terminal.visibleLines().join("\n")
          }`,
        ),
      );
    }, ms);
    const sub = watch.on(check);
    check();
  });
}

Deno.test("hub: a Claude-style permission prompt on screen is blocked, by rule", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await using store = new SessionStore({ shell: TEST_SHELL, env, cols: 100, rows: 24 });
    using watch = hubFor(store);
    const ctx = watch.hub;
    const session = store.create({ command: await fakeClaude(dir, [WORKING, PERMISSION, IDLE]) });
    await until(watch, session, (h) => h.status(session.id)?.state === "working");
    assert.equal(ctx.agent(session.id), "claude");
    assert.equal(ctx.hasRules("claude"), true);
    session.write("\r", false);
    await until(watch, session, (h) => h.status(session.id)?.state === "blocked");
    const s = ctx.status(session.id)!;
    assert.deepEqual([s.kind, s.source, s.ruleId], ["permission", "screen", "permission-footer"]);
    session.write("\r", false);
    await until(watch, session, (h) => h.status(session.id)?.state === "idle");
    assert.equal(ctx.status(session.id)?.ruleId, "idle-prompt", "a prose question is not blocked");
    assert.ok(ctx.status(session.id)!.seq >= 3);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hub: typing into a session first classifies output still settling (D7)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await using store = new SessionStore({ shell: TEST_SHELL, env, cols: 100, rows: 24 });
    // Settling never ends on its own here: only the input can classify.
    using hub = new DetectionHub(store, catalog, () => {}, {
      settleMs: 600_000,
      maxWaitMs: 600_000,
    });
    const session = store.create({ command: await fakeClaude(dir, [WORKING, IDLE]) });
    await waitForText(session, "esc to interrupt");
    assert.equal(hub.status(session.id), null, "nothing classified yet");
    session.write("x", false);
    assert.equal(hub.status(session.id)?.state, "working", "classified before the text went in");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hub: typing into a shell whose foreground became an agent classifies it before the keys go in (D7)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await using store = new SessionStore({
      shell: TEST_SHELL,
      env,
      cols: 100,
      rows: 24,
      cwd: dir,
    });
    using hub = new DetectionHub(store, catalog, () => {}, {
      settleMs: 600_000,
      maxWaitMs: 600_000,
    });
    await fakeClaude(dir, [WORKING, IDLE]);
    const session = store.create(); // interactive bash: the agent gets its own foreground group
    await waitForText(session, /[#$] $/m);
    session.write("echo plain\r", false); // classified fresh: a plain shell
    await waitForText(session, /^plain/m);
    session.write("x", false); // the same shell in front: nothing new to classify
    assert.equal(hub.agent(session.id), null);
    session.write("\x15./claude\r", false);
    await waitForText(session, "esc to interrupt");
    session.write("x", false);
    assert.equal(hub.agent(session.id), "claude", "identified before the key went in");
    assert.equal(hub.status(session.id)?.state, "working");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hub: OSC 7501 from a plain shell shows blocked, with its msg", async () => {
  await using store = new SessionStore({ shell: TEST_SHELL, env, cols: 80, rows: 24 });
  using watch = hubFor(store);
  const { hub, events } = watch;
  const session = store.create({
    command: "printf '\\033]7501;state=blocked:kind=permission:msg=QXBwbHk/\\033\\\\'; sleep 10",
  });
  await until(watch, session, (h) => h.status(session.id)?.state === "blocked");
  const s = hub.status(session.id)!;
  assert.deepEqual([s.kind, s.source, s.ruleId, s.msg], [
    "permission",
    "declared",
    "osc7501",
    "Apply?",
  ]);
  assert.equal(hub.agent(session.id), null);
  assert.equal(hub.capable(session.id), false);
  const state = events.find((e) => e.type === "state");
  assert.equal(state?.type === "state" && state.status.seq, 1);
  // Process exit clears blocked.
  session.kill("SIGTERM");
  await session.exited;
  assert.equal(hub.status(session.id)?.state, "idle");
  assert.equal(hub.status(session.id)?.source, "process");
});

Deno.test("hub: declared done stays through ctl send, clears when the user types", async () => {
  await using store = new SessionStore({ shell: TEST_SHELL, env, cols: 80, rows: 24 });
  using watch = hubFor(store);
  const hub = watch.hub;
  const session = store.create({
    command: "printf '\\033]7501;?\\033\\\\\\033]7501;state=done\\033\\\\'; cat >/dev/null",
  });
  await until(watch, session, (h) => h.status(session.id)?.state === "done");
  assert.equal(hub.capable(session.id), true, "answered the ? probe");
  session.write("x", false);
  assert.equal(hub.classifyNow(session.id)?.state, "done");
  session.write("y", true);
  assert.deepEqual(
    [hub.status(session.id)?.state, hub.status(session.id)?.source],
    ["idle", "input"],
  );
});

/**
 * The steps below run on a virtual clock: the hub's timers fire only when the test moves it,
 * so each check runs where the schedule puts it (docs/detection.md, Scheduling), however
 * loaded the machine, and the 2 s a hook takes to go stale take no time.
 */
Deno.test("hub: hook latch, visible blocker over a stale hook, and the user's interrupt", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const clock = new VirtualClock(1_000_000);
    await using store = new SessionStore({ shell: TEST_SHELL, env, cols: 100, rows: 24 });
    using watch = hubFor(store, clock);
    const hub = watch.hub;
    const state = () => {
      const s = hub.status(session.id);
      return s && `${s.state}/${s.source}/${s.ruleId}`;
    };
    const session = store.create({
      command: await fakeClaude(dir, [WORKING, PERMISSION, WORKING, IDLE]),
    });
    await waitForText(session, "esc to interrupt");
    assert.equal(state(), null, "nothing classified before the output settled");
    clock.advance(100);
    assert.equal(state(), "working/screen/working");
    hub.hook(session.id, { state: "working", kind: null, msg: null, event: "UserPromptSubmit" });
    assert.equal(hub.status(session.id)?.source, "hook");
    clock.advance(500);
    session.write("\r", false); // the permission menu appears; the hook says working
    await waitForText(session, "Esc to cancel");
    clock.advance(100);
    assert.equal(state(), "working/hook/hook:UserPromptSubmit", "a fresh hook still wins");
    clock.advance(BLOCKER_STALE_MS); // no output: the recheck hands over to the menu on screen
    assert.equal(state(), "blocked/screen/permission-footer");
    session.write("\r", false); // prompt leaves the screen → back to the hook's working
    await waitForText(session, "esc to interrupt");
    clock.advance(100);
    assert.equal(state(), "working/hook/hook:UserPromptSubmit");
    session.write("\x1b", true); // Esc mid-turn: no hook will fire
    session.write("\r", false);
    await waitForText(session, "? for shortcuts");
    clock.advance(100);
    assert.equal(state(), "idle/input/interrupt");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hub: Esc from ctl send (not typed) interrupts the turn too", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const clock = new VirtualClock(1_000_000);
    await using store = new SessionStore({ shell: TEST_SHELL, env, cols: 100, rows: 24 });
    using watch = hubFor(store, clock);
    const hub = watch.hub;
    const session = store.create({ command: await fakeClaude(dir, [WORKING, IDLE]) });
    await waitForText(session, "esc to interrupt");
    clock.advance(100);
    assert.equal(hub.status(session.id)?.state, "working");
    hub.hook(session.id, { state: "working", kind: null, msg: null, event: "UserPromptSubmit" });
    clock.advance(100);
    session.write("\x1b", false); // an orchestrator's Esc mid-turn
    session.write("\r", false);
    await waitForText(session, "? for shortcuts");
    clock.advance(100);
    assert.deepEqual(
      [hub.status(session.id)?.state, hub.status(session.id)?.ruleId],
      ["idle", "interrupt"],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hub: a declaration from a foreground program ends when the shell is back", async () => {
  const clock = new VirtualClock(1_000_000);
  await using store = new SessionStore({ shell: TEST_SHELL, env, cols: 80, rows: 24 });
  // Output never settles here: only the foreground sampler can see `sleep`
  // (silent) start and end while the declaration (a printf builtin) waits.
  using watch = watchedHub(store, catalog, {
    now: clock.now,
    scheduler: clock.ticker(),
    settleMs: 600_000,
    maxWaitMs: 600_000,
  });
  const hub = watch.hub;
  const session = store.create(); // interactive bash: each command is its own foreground job
  let declared = false;
  using _ = session.on((e) => declared ||= e.type === "osc7501");
  // `sleep` runs 3 s: a loaded machine may look at the foreground late, and must still see it.
  session.write("printf '\\033]7501;state=blocked\\033\\\\'; sleep 3; printf 'back-at-'\r", false);
  const sleeping = () => declared && session.foreground()?.comm === "sleep";
  await waitFor(session, sleeping, 30_000, "the record, then sleep");
  clock.advance(300); // the burst of records is over
  assert.equal(hub.status(session.id)?.state, "blocked");
  await waitForText(session, /back-at-.*[#$] $/m, 30_000);
  clock.advance(300); // the sampler's next look at the foreground
  assert.deepEqual(
    [hub.status(session.id)?.state, hub.status(session.id)?.source, hub.status(session.id)?.ruleId],
    ["idle", "process", "exit"],
  );
});

Deno.test("hub: an identified agent without rules has no status (the TUI's dim mark)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/aider`;
    await Deno.writeTextFile(path, "#!/bin/bash\nprintf 'aider> '\nsleep 30\n");
    await Deno.chmod(path, 0o755);
    await using store = new SessionStore({ shell: TEST_SHELL, env, cols: 80, rows: 24 });
    using watch = hubFor(store);
    const { hub, events } = watch;
    const session = store.create({ command: path });
    await waitForText(session, "aider>");
    await until(watch, session, (h) => h.agent(session.id) === "aider");
    assert.equal(hub.hasRules("aider"), false);
    assert.equal(hub.classifyNow(session.id), null);
    assert.deepEqual(events, [{ type: "agent", id: session.id, agent: "aider", hasRules: false }]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hub: disposing with a classification pending leaves no timer behind", async () => {
  await using store = new SessionStore({ shell: TEST_SHELL, env, cols: 80, rows: 24 });
  const hub = new DetectionHub(store, catalog, () => {}, { settleMs: 10_000, maxWaitMs: 10_000 });
  const session = store.create({ command: "echo output; sleep 5" });
  await waitForText(session, "output");
  hub[Symbol.dispose](); // the settle timer (10 s) must be cleared: the sanitizer checks
  assert.equal(hub.status(session.id), null);
  assert.equal(hub.classifyNow(session.id), null);
});
