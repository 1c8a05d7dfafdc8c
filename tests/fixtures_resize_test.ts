/**
 * Captures whose terminal was resized (input.jsonl, src "resize"): every
 * label, the emulator resized where the terminal was, read by the screen
 * rules and prompt readers as a live session reads it after the resize —
 * its state, kind and prompt (subject aside: an OSC 7501 msg is the subject
 * in the full pipeline) exactly the truth's. tests/fixtures_test.ts replays
 * them at the recorded size, up to the first resize.
 */

import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { loadCatalog } from "../src/runtime/catalog.ts";
import { expectations, listCaptures } from "../src/replay/fixtures.ts";
import { classify } from "../src/detect/rules.ts";
import { readPrompt } from "../src/detect/prompt.ts";
import { terminalView } from "../src/session/screen_view.ts";
import { HeadlessTerminal } from "../src/session/terminal.ts";

const ROOT = new URL("../fixtures/captures/", import.meta.url);
const catalog = await loadCatalog({ userDir: null });
const resized = (await listCaptures(ROOT)).filter((c) => c.resizes.length > 0);

Deno.test("fixtures: some captures were resized while a prompt waited", () => {
  assertEquals(resized.length >= 1, true);
});

for (const capture of resized) {
  Deno.test(`fixtures: ${capture.name} reads right at every size (screen rules)`, async () => {
    const manifest = catalog.get(capture.meta.agent)!;
    const wanted = expectations(capture.truth).sort((a, b) => a.offset - b.offset);
    using term = new HeadlessTerminal({ cols: capture.meta.cols, rows: capture.meta.rows });
    let pos = 0;
    const got = [];
    for (const w of wanted) {
      for (const r of capture.resizes.filter((r) => r.off >= pos && r.off < w.offset)) {
        term.write(capture.bytes.subarray(pos, r.off));
        pos = r.off;
        await term.flush();
        term.resize(r.cols, r.rows);
      }
      term.write(capture.bytes.subarray(pos, w.offset));
      pos = w.offset;
      await term.flush();
      const view = terminalView(term);
      const rule = classify(manifest, view);
      const prompt = w.state === "blocked" ? readPrompt(manifest.prompts, view) : undefined;
      got.push({
        offset: w.offset,
        size: `${view.cols}x${view.rows}`,
        state: rule?.state,
        kind: w.kind === undefined ? undefined : rule?.kind ?? null,
        prompt: prompt && { ...prompt, subject: undefined },
      });
    }
    const sizeAt = (offset: number) => {
      const r = capture.resizes.findLast((r) => r.off < offset);
      return r ? `${r.cols}x${r.rows}` : `${capture.meta.cols}x${capture.meta.rows}`;
    };
    // The screen rules alone: a finished turn's idle label still reads done (the completion
    // line is on screen), as expectations() has it.
    const expected = wanted.map((w) => ({
      offset: w.offset,
      size: sizeAt(w.offset),
      state: w.state,
      kind: w.kind,
      prompt: w.state === "blocked" ? w.prompt && { ...w.prompt, subject: undefined } : undefined,
    }));
    assertEquals(got, expected);
  });
}
