/**
 * Notifications counted on real captured bytes (docs/notifications.md):
 * every capture in fixtures/captures is replayed through the real emulator
 * and detector (src/replay/replay.ts) at each point a live hub would
 * classify, the user's keys (input.jsonl) reach the notifier where they
 * were typed, and the notifications sent are counted against the truth: one
 * per blocked episode, one per done and one per failed turn (error), no
 * more, no fewer — none for a turn that recovered (the *-fail-flaky captures).
 */

import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { loadCatalog } from "../src/runtime/catalog.ts";
import { replay } from "../src/replay/replay.ts";
import { type Capture, captureReplay, listCaptures } from "../src/replay/fixtures.ts";
import { Notifier } from "../src/notify/notifier.ts";

const ROOT = new URL("../fixtures/captures/", import.meta.url);
const catalog = await loadCatalog({ userDir: null });
const captures = await listCaptures(ROOT);

interface Count {
  blocked: number;
  done: number;
  error: number;
}

/**
 * What the truth says happened: each run of blocked labels is one episode (the steps of one
 * dialog, a prompt redrawn at another size: claude-ask-multi-osc7501, claude-resize-osc7501),
 * each done label one turn, each error label one failed turn — but a failure right after a usage
 * limit (Gemini's quota error once its limit dialog was answered "2. Stop": gemini-limit-dialog)
 * is the limit's episode (docs/limits.md, "Notifications").
 */
function truthCount(capture: Capture): Count {
  const labels = capture.truth.timeline;
  return {
    blocked: labels.filter((l, i) => l.state === "blocked" && labels[i - 1]?.state !== "blocked")
      .length,
    done: labels.filter((l) => l.state === "done").length,
    error: labels.filter((l, i) =>
      l.state === "error" &&
      !(labels[i - 1]?.state === "error" && labels[i - 1]?.kind === "limit")
    ).length,
  };
}

/** Replays a capture and counts the notifications the notifier sends. */
async function notifiedCount(capture: Capture, declared: boolean): Promise<Count> {
  const count: Count = { blocked: 0, done: 0, error: 0 };
  await using notifier = new Notifier({ sink: () => {} });
  using _ = notifier.on((n, outcome) => {
    const counted = n.reason === "blocked" || n.reason === "done" || n.reason === "error";
    if (outcome === "sent" && counted) count[n.reason as keyof Count]++;
  });
  const keys = [...capture.keys];
  let seq = -1;
  await replay(capture.bytes, [capture.bytes.length], {
    ...captureReplay(capture, catalog, declared),
    onPoint: (p) => {
      // Keys typed before the bytes of this point reached the session before them.
      while (keys.length > 0 && keys[0]! < p.offset) {
        keys.shift();
        notifier.input("session-1", true);
      }
      if (p.status === null || p.status.seq === seq) return;
      seq = p.status.seq;
      notifier.agentState({ id: "session-1", name: capture.meta.agent }, p.status);
    },
  });
  return count;
}

for (const capture of captures) {
  for (const declared of [true, false]) {
    const variant = declared ? "full pipeline" : "screen rules alone";
    Deno.test(`notifications: ${capture.name} notifies once per episode (${variant})`, async () => {
      assertEquals(await notifiedCount(capture, declared), truthCount(capture));
    });
  }
}
