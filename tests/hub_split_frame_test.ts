/**
 * A frame that arrives in two reads is not classified half drawn when its
 * rest is already waiting. Real bytes: Claude Code redraws the bottom of
 * the screen in one write without a synchronized update, and in
 * `claude-tool` the write at byte 11984 that replaces the working spinner
 * with the permission prompt reads idle when cut at 12984 (the spinner
 * erased, the old input box's "? for shortcuts" still there). The tiled
 * replay saw that idle under load, between working and blocked.
 *
 * The cut is made deterministic: the fake agent writes up to the cut, the
 * test blocks its own event loop until the fake has written the rest (in
 * the kernel, unread), and the settle check is due at the same grid point
 * as the reactor's next batch read (settleMs 1). That point runs the
 * settle check before the read (ticker.ts runs its callbacks, then the
 * reactor's promise continuation).
 */

import assert from "node:assert/strict";
import { loadCatalog } from "../src/runtime/catalog.ts";
import { DetectionHub } from "../src/runtime/detection.ts";
import { SessionStore } from "../src/session/store.ts";
import { screenText, testEnv, waitFor } from "../src/session/test_util.ts";
import type { AgentStateName } from "../src/model/agent.ts";

const FAKE = new URL("./testdata/replay_parts.ts", import.meta.url).pathname;
const CAPTURE = new URL("../fixtures/captures/claude-tool", import.meta.url).pathname;
/** Where the write that draws the permission prompt starts, where the read is cut, its end. */
const WORKING = 11984;
const CUT = 12984;
const BLOCKED = 13978;

Deno.test("a frame whose rest waits unread is not classified half drawn (no idle between working and blocked)", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lzs-split-frame-" });
  const catalog = await loadCatalog({ userDir: null });
  await using store = new SessionStore({ shell: "/bin/bash", env: testEnv(), cols: 120, rows: 32 });
  using hub = new DetectionHub(store, catalog, { settleMs: 1 });
  try {
    const script = `${dir}/claude.ts`;
    Deno.copyFileSync(FAKE, script);
    const log = `${dir}/parts.log`;
    const parts = () => {
      try {
        return Deno.readTextFileSync(log).split("\n").filter(Boolean).length;
      } catch {
        return 0;
      }
    };
    const session = store.create({
      name: "claude",
      command: `exec ${Deno.execPath()} run -A --quiet ${script} ${CAPTURE} ${log} ` +
        `${WORKING} ${CUT} ${BLOCKED}`,
    });
    const state = () => hub.status(session.id)?.state ?? null;
    await waitFor(session, () => state() === "working", 30_000, "working before the prompt");
    const seen: AgentStateName[] = [];
    using _ = hub.on((e) => {
      if (e.type === "state" && e.id === session.id) seen.push(e.status.state);
    });

    Deno.kill(session.pid, "SIGUSR1");
    // Seen in the output event that shows it (the log line may come later): still in its turn.
    await waitFor(
      session,
      () => screenText(session).includes("Create the lab marker file") && !session.outputBehind,
      30_000,
      "the cut parsed",
    );
    assert.equal(state(), "working", "not classified yet");
    // Before the next grid point: the rest is written while this process reads nothing.
    Deno.kill(session.pid, "SIGUSR1");
    const until = performance.now() + 10_000;
    while (parts() < 3 && performance.now() < until) { /* the fake writes the rest */ }
    const wait = performance.now() + 20;
    while (performance.now() < wait) { /* its bytes reach the PTY */ }
    assert.equal(parts(), 3, "the fake wrote the rest");

    await waitFor(session, () => state() === "blocked", 30_000, "the permission prompt");
    assert.deepEqual(seen.filter((s) => s !== "working"), ["blocked"], `states: ${seen.join(" ")}`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
