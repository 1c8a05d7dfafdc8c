/**
 * Gemini CLI at its usage limit (fixtures/captures/gemini-limit-dialog, 0.61.0): the limit's
 * "1. Keep trying / 2. Stop" dialog replaces the input box; "2" (Stop, the manifest's
 * `limit.dismiss`) brings the box back, empty, under the API's error. A resume after the
 * reset (docs/limits.md) types its text only into an empty box: the placeholder
 * "Type your message or @path/to/file" must read as empty, not as text.
 */

import assert from "node:assert/strict";
import { HeadlessTerminal } from "../src/session/terminal.ts";
import { terminalView } from "../src/session/screen_view.ts";
import { classify } from "../src/detect/rules.ts";
import { readInput } from "../src/detect/prompt.ts";
import { loadCatalogSync } from "../src/runtime/catalog.ts";

function text(view: { rows: number; line(y: number): string }): string {
  return Array.from({ length: view.rows }, (_, y) => view.line(y)).join("\n");
}

const CAPTURE = new URL("../fixtures/captures/gemini-limit-dialog/", import.meta.url);

Deno.test("gemini: the limit's dialog has no input box; after Stop the box is empty", async () => {
  const raw = Deno.readFileSync(new URL("output.raw", CAPTURE));
  const gemini = loadCatalogSync({ userDir: null }).get("gemini")!;
  const at = async (offset: number) => {
    using term = new HeadlessTerminal({ cols: 120, rows: 32 });
    term.write(raw.subarray(0, offset));
    await term.flush();
    const view = terminalView(term);
    const status = classify(gemini, view);
    return {
      state: status?.state,
      kind: status?.kind ?? null,
      box: readInput(gemini.input, view),
      dialog: gemini.limit!.dialog.some((re) => re.test(text(view))),
    };
  };
  // The main prompt with its placeholder; the prompt being typed.
  assert.equal((await at(5266)).box, "");
  assert.equal((await at(107699)).box, "LAB-FAIL-LIMIT: please create the marker file lab-file.tx");
  // The dialog replaced the box; the reader finds the prompt echoed above it (the same shape).
  assert.deepEqual(await at(117250), {
    state: "error",
    kind: "limit",
    box: "LAB-FAIL-LIMIT: please create the marker file lab-file.txt",
    dialog: true,
  });
  assert.deepEqual(await at(126673), { state: "error", kind: "quota", box: "", dialog: false });
});
