/**
 * A frame drawn inside a synchronized update (`CSI ? 2026 h` … `l`) is not
 * classified half drawn: the hub waits for its end. Real bytes: opencode
 * wraps every redraw in one, and in `opencode-fail-overload` the screen cut
 * at byte 167558 (64 bytes into the update that starts at 167494) reads
 * idle while the agent works before and after it. The fake agent writes the
 * capture up to the update, then the first 64 bytes of it, then — 400 ms
 * later, eight settle periods — the rest.
 */

import assert from "node:assert/strict";
import { waitFor } from "../src/session/test_util.ts";
import { replayLab } from "./replay_parts_lab.ts";

const UPDATE = 167494;
const CUT = 167558;
const END = 167859 + "\x1b[?2026l".length;

Deno.test("a frame half drawn inside a synchronized update is not read (working stays working)", async () => {
  await using lab = await replayLab("opencode", "opencode-fail-overload", [UPDATE, CUT, END], {
    midUpdateMaxMs: 60_000,
  });
  const { session } = lab;
  await waitFor(session, () => lab.state() === "working", 30_000, "working before the update");
  const seen = lab.record();

  lab.next();
  await waitFor(session, () => lab.parts() === 2, 30_000, "the first bytes of the update");
  // Written is not yet readable: the kernel hands a PTY's bytes to its reader a moment after
  // the write returns, so "nothing behind" may be seen before they arrive. Parsed, they open
  // the update.
  await waitFor(
    session,
    () => session.midUpdate && !session.outputBehind,
    30_000,
    "those bytes parsed (inside the update)",
  );
  await new Promise((r) => setTimeout(r, 400));
  lab.next();
  await waitFor(session, () => lab.parts() === 3 && !session.midUpdate, 30_000, "the update's end");
  await new Promise((r) => setTimeout(r, 300));

  assert.deepEqual(seen.filter((s) => s !== "working"), [], `states: ${seen.join(" ")}`);
  assert.equal(lab.state(), "working");
});
