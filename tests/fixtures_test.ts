/**
 * Every labelled offset of every capture in fixtures/captures, replayed
 * through the real emulator at the recorded size (no replies), twice: the
 * full pipeline (OSC 7501 records in the bytes are declared evidence) and the
 * screen rules alone (7501 ignored). Both must match the truth (SPEC D8).
 */

import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { loadCatalog } from "../src/app/catalog.ts";
import { replay } from "../src/app/replay.ts";
import { type Expectation, expectations, listCaptures } from "../src/app/fixtures.ts";

const ROOT = new URL("../fixtures/captures/", import.meta.url);
const catalog = await loadCatalog({ userDir: null });
const captures = await listCaptures(ROOT);

Deno.test("fixtures: the shared captures are all present", () => {
  assertEquals(catalog.errors.map((e) => e.message), []);
  assertEquals(captures.length >= 12, true, `only ${captures.length} captures`);
});

for (const capture of captures) {
  for (const declared of [true, false]) {
    const variant = declared ? "full pipeline" : "screen rules alone";
    Deno.test(`fixtures: ${capture.name} (${variant})`, async () => {
      const wanted: Expectation[] = expectations(capture.truth);
      assertEquals(wanted.length > 0, true, "no labelled offsets");
      const results = await replay(capture.bytes, wanted.map((w) => w.offset), {
        cols: capture.meta.cols,
        rows: capture.meta.rows,
        catalog,
        agent: capture.meta.agent,
        declared,
        ...(capture.chunks ? { chunks: capture.chunks } : {}),
      });
      const got = results.map((r, i) => ({
        offset: r.offset,
        label: wanted[i]!.label,
        state: r.status?.state ?? null,
        kind: wanted[i]!.kind === undefined ? undefined : r.status?.kind ?? null,
      }));
      const expected = wanted.map((w) => ({
        offset: w.offset,
        label: w.label,
        state: w.state,
        kind: w.kind,
      }));
      assertEquals(got, expected);
    });
  }
}

/**
 * A false "needs you" trains the user to ignore lazyshell: along the whole
 * replay (every point a live hub would classify), blocked appears only while
 * the truth is blocked, or in the transitional window just before it ("…
 * expected next": OSC 7501 declares a prompt a few ms before it is drawn).
 * Only captures with chunk times (chunks.jsonl): without them the replay
 * classifies every 256 bytes, mid-frame, which a settled live hub never does.
 */
for (const capture of captures.filter((c) => c.chunks !== null)) {
  for (const declared of [true, false]) {
    const variant = declared ? "full pipeline" : "screen rules alone";
    Deno.test(`fixtures: ${capture.name} never reads blocked when it is not (${variant})`, async () => {
      const labels = capture.truth.timeline;
      const wrong: string[] = [];
      await replay(capture.bytes, [capture.bytes.length], {
        cols: capture.meta.cols,
        rows: capture.meta.rows,
        catalog,
        agent: capture.meta.agent,
        declared,
        ...(capture.chunks ? { chunks: capture.chunks } : {}),
        onPoint: (p) => {
          if (p.status?.state !== "blocked") return;
          // The label in effect for the bytes before this point.
          const i = labels.findLastIndex((l) => l.byte_offset_in_raw < p.offset);
          const label = labels[i];
          const next = labels[i + 1];
          const previous = labels[i - 1];
          // The key that answered a prompt was just pressed; its repaint has not arrived.
          const answering = previous?.state === "blocked" && label?.source === "driver" &&
            p.offset - label.byte_offset_in_raw <= 64;
          const ok = label !== undefined &&
            (label.state === "blocked" || /expected next/.test(label.note) || answering ||
              (label.state === "starting" && next?.state === "blocked"));
          if (!ok) wrong.push(`@${p.offset} (${label?.state}: ${label?.note}) ${p.status.ruleId}`);
        },
      });
      assertEquals(wrong, []);
    });
  }
}
