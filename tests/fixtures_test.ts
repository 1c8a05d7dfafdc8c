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
