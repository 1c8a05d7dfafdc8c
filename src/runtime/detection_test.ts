/**
 * The DetectionHub on real PTY sessions: a bash script named `claude` (so
 * the process table names it, S4) drawing Claude Code's UI, and a plain
 * shell declaring a state over OSC 7501.
 */

import assert from "node:assert/strict";
import { SessionStore } from "../session/store.ts";
import { TEST_SHELL, testEnv, waitForText } from "../session/test_util.ts";
import type { Session } from "../session/session.ts";
import { loadCatalog } from "./catalog.ts";
import { type DetectionEvent, DetectionHub } from "./detection.ts";

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

function hubFor(store: SessionStore, now?: () => number) {
  const events: DetectionEvent[] = [];
  const hub = new DetectionHub(store, catalog, now ? { now } : {});
  hub.on((e) => events.push(e));
  return { hub, events };
}

/** Resolves once the hub reports `want` for the session (state events only). */
function until(
  hub: DetectionHub,
  session: Session,
  want: (h: DetectionHub) => boolean,
  ms = 10000,
) {
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
    const sub = hub.on(check);
    check();
  });
}

Deno.test("hub: a Claude-style permission prompt on screen is blocked, by rule", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await using store = new SessionStore({ shell: TEST_SHELL, env, cols: 100, rows: 24 });
    using ctx = hubFor(store).hub;
    const session = store.create({ command: await fakeClaude(dir, [WORKING, PERMISSION, IDLE]) });
    await until(ctx, session, (h) => h.status(session.id)?.state === "working");
    assert.equal(ctx.agent(session.id), "claude");
    assert.equal(ctx.hasRules("claude"), true);
    session.write("\r", false);
    await until(ctx, session, (h) => h.status(session.id)?.state === "blocked");
    const s = ctx.status(session.id)!;
    assert.deepEqual([s.kind, s.source, s.ruleId], ["permission", "screen", "permission-footer"]);
    session.write("\r", false);
    await until(ctx, session, (h) => h.status(session.id)?.state === "idle");
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
    using hub = new DetectionHub(store, catalog, { settleMs: 600_000, maxWaitMs: 600_000 });
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
    using hub = new DetectionHub(store, catalog, { settleMs: 600_000, maxWaitMs: 600_000 });
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
  const { hub, events } = hubFor(store);
  using _ = hub;
  const session = store.create({
    command: "printf '\\033]7501;state=blocked:kind=permission:msg=QXBwbHk/\\033\\\\'; sleep 10",
  });
  await until(hub, session, (h) => h.status(session.id)?.state === "blocked");
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
  assert.equal(state?.type === "state" && state.previous, null);
  // Process exit clears blocked.
  session.kill("SIGTERM");
  await session.exited;
  assert.equal(hub.status(session.id)?.state, "idle");
  assert.equal(hub.status(session.id)?.source, "process");
});

Deno.test("hub: declared done stays through ctl send, clears when the user types", async () => {
  await using store = new SessionStore({ shell: TEST_SHELL, env, cols: 80, rows: 24 });
  using hub = hubFor(store).hub;
  const session = store.create({
    command: "printf '\\033]7501;?\\033\\\\\\033]7501;state=done\\033\\\\'; cat >/dev/null",
  });
  await until(hub, session, (h) => h.status(session.id)?.state === "done");
  assert.equal(hub.capable(session.id), true, "answered the ? probe");
  session.write("x", false);
  assert.equal(hub.classifyNow(session.id)?.state, "done");
  session.write("y", true);
  assert.deepEqual(
    [hub.status(session.id)?.state, hub.status(session.id)?.source],
    ["idle", "input"],
  );
});

Deno.test("hub: hook latch, visible blocker over a stale hook, and the user's interrupt", async () => {
  const dir = await Deno.makeTempDir();
  try {
    let clock = 1_000_000;
    await using store = new SessionStore({ shell: TEST_SHELL, env, cols: 100, rows: 24 });
    using hub = hubFor(store, () => clock).hub;
    const session = store.create({
      command: await fakeClaude(dir, [WORKING, PERMISSION, WORKING, IDLE]),
    });
    await until(hub, session, (h) => h.status(session.id)?.state === "working");
    hub.hook(session.id, { state: "working", kind: null, msg: null, event: "UserPromptSubmit" });
    assert.equal(hub.status(session.id)?.source, "hook");
    clock += 500;
    session.write("\r", false); // the permission menu appears; the hook says working
    await waitForText(session, "Esc to cancel", 10000);
    clock += 100;
    assert.equal(hub.classifyNow(session.id)?.state, "working", "a fresh hook still wins");
    clock += 2000;
    const s = hub.classifyNow(session.id)!;
    assert.deepEqual([s.state, s.source, s.ruleId], ["blocked", "screen", "permission-footer"]);
    session.write("\r", false); // prompt leaves the screen → back to the hook's working
    await until(hub, session, (h) => h.status(session.id)?.source === "hook");
    assert.equal(hub.status(session.id)?.state, "working");
    session.write("\x1b", true); // Esc mid-turn: no hook will fire
    session.write("\r", false);
    await until(hub, session, (h) => h.status(session.id)?.state === "idle");
    assert.deepEqual(
      [hub.status(session.id)?.source, hub.status(session.id)?.ruleId],
      ["input", "interrupt"],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hub: Esc from ctl send (not typed) interrupts the turn too", async () => {
  const dir = await Deno.makeTempDir();
  try {
    let clock = 1_000_000;
    await using store = new SessionStore({ shell: TEST_SHELL, env, cols: 100, rows: 24 });
    using hub = hubFor(store, () => clock).hub;
    const session = store.create({ command: await fakeClaude(dir, [WORKING, IDLE]) });
    await until(hub, session, (h) => h.status(session.id)?.state === "working");
    hub.hook(session.id, { state: "working", kind: null, msg: null, event: "UserPromptSubmit" });
    clock += 100;
    session.write("\x1b", false); // an orchestrator's Esc mid-turn
    session.write("\r", false);
    await until(hub, session, (h) => h.status(session.id)?.state === "idle");
    assert.equal(hub.status(session.id)?.ruleId, "interrupt");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hub: a declaration from a foreground program ends when the shell is back", async () => {
  await using store = new SessionStore({ shell: TEST_SHELL, env, cols: 80, rows: 24 });
  // Output never settles here: only the foreground sampler can see `sleep`
  // (silent) start and end while the declaration (a printf builtin) waits.
  using hub = new DetectionHub(store, catalog, { settleMs: 600_000, maxWaitMs: 600_000 });
  const session = store.create(); // interactive bash: each command is its own foreground job
  session.write("printf '\\033]7501;state=blocked\\033\\\\'; sleep 1; printf 'back-at-'\r", false);
  await until(hub, session, (h) => h.status(session.id)?.state === "blocked");
  await waitForText(session, /back-at-.*[#$] $/m, 10000);
  await until(hub, session, (h) => h.status(session.id)?.state === "idle");
  assert.deepEqual(
    [hub.status(session.id)?.source, hub.status(session.id)?.ruleId],
    ["process", "exit"],
  );
});

Deno.test("hub: an identified agent without rules has no status (the TUI's dim mark)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/aider`;
    await Deno.writeTextFile(path, "#!/bin/bash\nprintf 'aider> '\nsleep 30\n");
    await Deno.chmod(path, 0o755);
    await using store = new SessionStore({ shell: TEST_SHELL, env, cols: 80, rows: 24 });
    const { hub, events } = hubFor(store);
    using _ = hub;
    const session = store.create({ command: path });
    await waitForText(session, "aider>");
    await until(hub, session, (h) => h.agent(session.id) === "aider");
    assert.equal(hub.hasRules("aider"), false);
    assert.equal(hub.classifyNow(session.id), null);
    assert.deepEqual(events, [{ type: "agent", id: session.id, agent: "aider" }]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hub: disposing with a classification pending leaves no timer behind", async () => {
  await using store = new SessionStore({ shell: TEST_SHELL, env, cols: 80, rows: 24 });
  const hub = new DetectionHub(store, catalog, { settleMs: 10_000, maxWaitMs: 10_000 });
  const session = store.create({ command: "echo output; sleep 5" });
  await waitForText(session, "output");
  hub[Symbol.dispose](); // the settle timer (10 s) must be cleared: the sanitizer checks
  assert.equal(hub.status(session.id), null);
  assert.equal(hub.classifyNow(session.id), null);
});
