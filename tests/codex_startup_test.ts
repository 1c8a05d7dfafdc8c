/**
 * Codex queues a prompt submitted before its start-up ended (offline, its
 * plugin sync waits on the network for 30-90 s): the prompt stays where the
 * input box was, with "Waiting for startup · esc cancel" under it, until the
 * turn starts by itself. Real bytes (fixtures/captures/codex-fail-auth, the
 * prompt typed at 6 s, this screen from 36 s, the turn at 43 s): while it
 * shows, the built-in manifest reads `working` and no input box, so a `ctl
 * send` receipt or a new agent session's first prompt says the prompt was
 * taken instead of "the text is still in its input box".
 */

import assert from "node:assert/strict";
import { HeadlessTerminal } from "../src/session/terminal.ts";
import { terminalView } from "../src/session/screen_view.ts";
import { classify } from "../src/detect/rules.ts";
import { readInput } from "../src/detect/prompt.ts";
import { loadCatalogSync } from "../src/runtime/catalog.ts";

const CAPTURE = new URL("../fixtures/captures/codex-fail-auth/", import.meta.url);

Deno.test("codex: a prompt waiting for start-up reads working, with no input box", async () => {
  const raw = Deno.readFileSync(new URL("output.raw", CAPTURE));
  const codex = loadCatalogSync({ userDir: null }).get("codex")!;
  const at = async (offset: number) => {
    using term = new HeadlessTerminal({ cols: 120, rows: 32 });
    term.write(raw.subarray(0, offset));
    await term.flush();
    const view = terminalView(term);
    return { state: classify(codex, view)?.state, box: readInput(codex.input, view) };
  };
  // Typing (the text is in the box), then queued, then Codex's own idle composer again.
  assert.deepEqual(await at(14325), {
    state: "idle",
    box: "LAB-FAIL-AUTH: please create the marker fil",
  });
  assert.deepEqual(await at(15551), { state: "working", box: null });
  const turn = await at(19967);
  assert.deepEqual([turn.state, turn.box], ["working", "Ask Codex to do anything"]);
});
