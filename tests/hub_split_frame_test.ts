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
import { screenText, waitFor } from "../src/session/test_util.ts";
import { replayLab } from "./replay_parts_lab.ts";

/** Where the write that draws the permission prompt starts, where the read is cut, its end. */
const WORKING = 11984;
const CUT = 12984;
const BLOCKED = 13978;

Deno.test("a frame whose rest waits unread is not classified half drawn (no idle between working and blocked)", async () => {
  // The cut must be seen before any grid point has passed it: on a loaded machine this
  // process may wake after one did (the cut classified before the test could hold its loop).
  // That run proves nothing either way and is made again, up to 5 times.
  for (let attempt = 1;; attempt++) {
    const done = await attemptSplitFrame();
    if (done) return;
    assert.ok(attempt < 5, "the cut was classified before the test saw it, 5 times");
  }
});

/** One run; false when the cut was classified before the test saw it parsed. */
async function attemptSplitFrame(): Promise<boolean> {
  await using lab = await replayLab("claude", "claude-tool", [WORKING, CUT, BLOCKED], {
    settleMs: 1,
  });
  const { session } = lab;
  await waitFor(session, () => lab.state() === "working", 30_000, "working before the prompt");
  const seen = lab.record();

  lab.next();
  // Seen in the output event that shows it (the log line may come later): still in its turn.
  await waitFor(
    session,
    () => screenText(session).includes("Create the lab marker file") && !session.outputBehind,
    30_000,
    "the cut parsed",
  );
  if (lab.state() !== "working") return false;
  // Before the next grid point: the rest is written while this process reads nothing.
  lab.next();
  const until = performance.now() + 10_000;
  while (lab.parts() < 3 && performance.now() < until) { /* the fake writes the rest */ }
  const wait = performance.now() + 20;
  while (performance.now() < wait) { /* its bytes reach the PTY */ }
  assert.equal(lab.parts(), 3, "the fake wrote the rest");

  await waitFor(session, () => lab.state() === "blocked", 30_000, "the permission prompt");
  assert.deepEqual(seen.filter((s) => s !== "working"), ["blocked"], `states: ${seen.join(" ")}`);
  return true;
}
