/**
 * Every labelled offset of every capture in fixtures/captures, replayed
 * through the real emulator at the recorded size (no replies), twice: the
 * full pipeline (OSC 7501 records in the bytes are declared evidence) and the
 * screen rules alone (7501 ignored). Both must match the truth (fixtures/captures/README.md).
 */

import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { loadCatalog } from "../src/runtime/catalog.ts";
import { replay, type ReplayPoint } from "../src/replay/replay.ts";
import {
  type Capture,
  captureReplay,
  type Expectation,
  expectations,
  listCaptures,
  type TruthLabel,
  untilResized,
} from "../src/replay/fixtures.ts";
import type { Prompt } from "../src/detect/prompt.ts";

const ROOT = new URL("../fixtures/captures/", import.meta.url);
const catalog = await loadCatalog({ userDir: null });
// Replays run at the recorded size: a capture whose terminal was resized is checked here up
// to its first resize, and whole, resized as recorded, by tests/fixtures_resize_test.ts.
const captures = (await listCaptures(ROOT)).map(untilResized);

Deno.test("fixtures: the shared captures are all present", () => {
  assertEquals(catalog.errors.map((e) => e.message), []);
  assertEquals(captures.length >= 12, true, `only ${captures.length} captures`);
});

/** A capture replayed as the live hub would see it, at `offsets` (or the end), in `declared` mode. */
function replayed(
  capture: Capture,
  offsets: readonly number[],
  declared: boolean,
  onPoint?: (p: ReplayPoint) => void,
) {
  return replay(capture.bytes, offsets, {
    ...captureReplay(capture, catalog, declared),
    ...(onPoint ? { onPoint } : {}),
  });
}

/**
 * Every label's state (and kind, when named), and on blocked labels what the
 * screen asks (docs/manifests.md "Prompts"): question, subject, options with their keys,
 * cancel, approve/deny — exactly the truth's `prompt`. With the screen rules
 * alone the subject may differ (an OSC 7501 msg is the subject in the full
 * pipeline); everything else must not.
 */
for (const capture of captures) {
  for (const declared of [true, false]) {
    const variant = declared ? "full pipeline" : "screen rules alone";
    Deno.test(`fixtures: ${capture.name} (${variant})`, async () => {
      const wanted: Expectation[] = expectations(capture.truth);
      assertEquals(wanted.length > 0, true, "no labelled offsets");
      const results = await replayed(capture, wanted.map((w) => w.offset), declared);
      const bare = (p: Prompt | null | undefined) =>
        p && !declared ? { ...p, subject: undefined } : p ?? null;
      const got = results.map((r, i) => ({
        offset: r.offset,
        label: wanted[i]!.label,
        state: r.status?.state ?? null,
        kind: wanted[i]!.kind === undefined ? undefined : r.status?.kind ?? null,
        prompt: wanted[i]!.state === "blocked" ? bare(r.prompt) : undefined,
      }));
      const expected = wanted.map((w) => ({
        offset: w.offset,
        label: w.label,
        state: w.state,
        kind: w.kind,
        prompt: w.state === "blocked" ? bare(w.prompt) : undefined,
      }));
      assertEquals(got, expected);
    });
  }
}

const blockedCaptures = captures.filter((c) =>
  expectations(c.truth).some((e) => e.state === "blocked")
);

Deno.test("fixtures: every blocked label has its prompt in the truth", () => {
  const missing = blockedCaptures.flatMap((c) =>
    expectations(c.truth).filter((e) => e.state === "blocked" && e.prompt === undefined)
      .map((e) => `${c.name} @${e.offset}`)
  );
  assertEquals(missing, []);
  assertEquals(blockedCaptures.length >= 13, true, `only ${blockedCaptures.length} captures`);
});

/**
 * A false "needs you" trains the user to ignore lazyshell, a missed one
 * leaves an agent waiting: along the whole replay (every point a live hub
 * would classify), blocked appears only while the truth is blocked, or in
 * the transitional window just before it ("… expected next": OSC 7501
 * declares a prompt a few ms before it is drawn), and never lapses while a
 * drawn prompt waits. The same for a failed turn: `error` only once the turn
 * failed (never while it retries, never for a turn that recovered), and from
 * the settled failure screen on until a key is pressed.
 * And a turn in progress never reads idle once its working screen settled.
 * Only captures with chunk times (chunks.jsonl): without them the replay
 * classifies every 256 bytes, mid-frame, which a settled live hub never does.
 */
/** How long after the answering key a prompt may still be on screen (its repaint pending). */
const ANSWER_REPAINT_MS = 250;
/**
 * How long before its screen label a state may already be declared: Claude Code declares
 * a prompt or a failed turn over OSC 7501 80–130 ms before drawing it (claude-fail-*).
 */
const DECLARE_LEAD_MS = 500;

/**
 * How long after its label a declared state may still be the one before: the engine applies
 * a burst of OSC 7501 records once it is over, 200 ms after the last record, at the next 50 ms
 * grid point (docs/detection.md, Bursts), where the record's chunk may come a little after the
 * label's moment.
 */
const DECLARE_LAG_MS = 300;

/** The next label is `state` and due within DECLARE_LEAD_MS of this point. */
function dueSoon(p: ReplayPoint, next: TruthLabel | undefined, state: string): boolean {
  return next?.state === state && next.t_ms !== undefined && next.t_ms - p.time <= DECLARE_LEAD_MS;
}

/** A declared state from before `label`, within DECLARE_LAG_MS of it: its burst is not over. */
function lagging(p: ReplayPoint, label: TruthLabel | undefined): boolean {
  return p.status?.source === "declared" && label?.t_ms !== undefined &&
    p.time - label.t_ms <= DECLARE_LAG_MS;
}

for (const capture of captures.filter((c) => c.chunks !== null)) {
  for (const declared of [true, false]) {
    const variant = declared ? "full pipeline" : "screen rules alone";
    Deno.test(`fixtures: ${capture.name} reads blocked, error and working exactly while they are (${variant})`, async () => {
      const labels = capture.truth.timeline;
      const wrong: string[] = [];
      await replayed(capture, [capture.bytes.length], declared, (p) => {
        // The label in effect for the bytes before this point.
        const i = labels.findLastIndex((l) => l.byte_offset_in_raw < p.offset);
        const label = labels[i];
        const settled = label !== undefined &&
          p.offset >= (label.screen_settled_offset ?? label.byte_offset_in_raw);
        const why = `${p.status?.state}/${p.status?.ruleId}`;
        // A screen label is the end of the chunk that drew it: in effect at its offset.
        const shown = labels.findLast((l) => l.byte_offset_in_raw <= p.offset);
        // Until a key is pressed: the user may answer the failure (Stop on Gemini's limit
        // dialog, gemini-limit-dialog), and a typed key ends a failed turn (docs/detection.md).
        // A key at this very offset was typed before the point was read (the replay's order).
        const answered = label !== undefined &&
          capture.keys.some((k) => k >= label.byte_offset_in_raw && k <= p.offset);
        if (
          label?.state === "error" && settled && p.status?.state !== "error" &&
          !lagging(p, label) && !answered
        ) {
          wrong.push(`missed error @${p.offset} (${label.note}) ${why}`);
        }
        // A turn in progress — retries included — never reads idle once its working
        // screen settled (opencode's retry line once hid its indicator: opencode-fail-rate).
        const working = shown?.state === "working" &&
          p.offset >= (shown.screen_settled_offset ?? shown.byte_offset_in_raw);
        if (working && p.status?.state === "idle" && !lagging(p, shown)) {
          wrong.push(`idle while working @${p.offset} (${shown.note}) ${why}`);
        }
        const declaredEarly = p.status?.source === "declared" &&
          dueSoon(p, labels[i + 1], "error");
        // An agent that goes on after a failed turn by itself (Claude at a usage limit's reset:
        // claude-limit-auto-osc7501) declares working before it redraws: until that screen
        // settled, the failure is still what the screen shows.
        const s = shown ? labels.indexOf(shown) : -1;
        const redrawing = shown !== undefined && labels[s - 1]?.state === "error" &&
          p.offset < (shown.screen_settled_offset ?? shown.byte_offset_in_raw);
        if (
          p.status?.state === "error" && shown?.state !== "error" && !declaredEarly && !redrawing
        ) {
          wrong.push(`false error @${p.offset} (${shown?.state}: ${shown?.note}) ${why}`);
        }
        wrong.push(...blockedWrong(p, labels, i, settled, capture.keys));
      });
      assertEquals(wrong, []);
    });
  }
}

function blockedWrong(
  p: ReplayPoint,
  labels: readonly TruthLabel[],
  i: number,
  settled: boolean,
  keys: readonly number[],
): string[] {
  const label = labels[i];
  const next = labels[i + 1];
  const previous = labels[i - 1];
  if (p.status?.state !== "blocked") {
    // A prompt fully drawn and not yet answered (no key pressed since) reads blocked.
    const drawn = label?.state === "blocked" && settled && !lagging(p, label) &&
      !keys.some((k) => k >= label.byte_offset_in_raw && k < p.offset);
    return drawn ? [`missed @${p.offset} (${label.note}) ${p.status?.ruleId}`] : [];
  }
  // The key that answered a prompt was just pressed; its repaint has not arrived.
  const answering = previous?.state === "blocked" && label?.source === "driver" &&
    label.t_ms !== undefined && p.time - label.t_ms <= ANSWER_REPAINT_MS;
  // A screen label is the end of the chunk that drew it: in effect at its offset.
  const drawnHere = next?.state === "blocked" && next.byte_offset_in_raw === p.offset;
  const declaredEarly = p.status.source === "declared" && dueSoon(p, next, "blocked");
  const ok = label !== undefined &&
    (label.state === "blocked" || /expected next/.test(label.note) || answering ||
      drawnHere || declaredEarly || lagging(p, label) ||
      (label.state === "starting" && next?.state === "blocked"));
  return ok ? [] : [`@${p.offset} (${label?.state}: ${label?.note}) ${p.status.ruleId}`];
}

/**
 * Never a wrong reading: at every point a live hub would classify, a prompt
 * read at all is the one of the blocked label in effect (or of the next one,
 * drawn a few ms after OSC 7501 declared it) — never half a menu. Keys are
 * compared until the user presses one (arrows move the selection).
 */
for (const capture of blockedCaptures.filter((c) => c.chunks !== null)) {
  Deno.test(`fixtures: ${capture.name} never reads a wrong prompt`, async () => {
    const labels = capture.truth.timeline;
    const wrong: string[] = [];
    await replayed(capture, [capture.bytes.length], true, (p) => {
      if (p.prompt === null) return;
      const i = labels.findLastIndex((l) => l.byte_offset_in_raw < p.offset);
      const near = [labels[i], labels[i + 1], labels[i - 1]].filter((l) => l?.prompt);
      const label = labels[i]!;
      const typed = capture.keys.some((k) => k >= label.byte_offset_in_raw && k < p.offset);
      const bare = (x: Prompt) =>
        JSON.stringify({
          ...x,
          subject: null,
          options: x.options.map((o) => ({ label: o.label, keys: typed ? [] : o.keys })),
        });
      if (!near.some((l) => bare(l!.prompt!) === bare(p.prompt!))) {
        wrong.push(`@${p.offset}: ${JSON.stringify(p.prompt)}`);
      }
    });
    assertEquals(wrong, []);
  });
}
