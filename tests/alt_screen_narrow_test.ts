/**
 * A session on the alternate screen narrowed by a client (a smaller client
 * typed into it, a tile): xterm trims its rows to the new width only where
 * it reflows, on the normal screen. On the alternate screen the cells past
 * the new right edge stayed in each row, and every reader of a row's text
 * read them: `ctl read` (seen live: Codex 0.171 narrowed from 97 to 57
 * columns by a client showed `› LAB-LONG: …           ll thinking about the
 * problem.`, the tail of a line drawn at the old width) and the detection's
 * screen view, whose rules then matched text no terminal shows — here a
 * permission footer drawn before the resize, cleared by the program's own
 * redraw (ED 2 clears only up to the new width), read as `blocked`. A real
 * PTY, the real emulator and Codex's manifest.
 */

import assert from "node:assert/strict";
import { loadCatalog } from "../src/runtime/catalog.ts";
import { classify } from "../src/detect/rules.ts";
import { testStore, waitFor } from "../src/session/test_util.ts";

const catalog = await loadCatalog({ userDir: null });

Deno.test("a narrowed alternate screen keeps nothing past its right edge for ctl read and the rules", async () => {
  await using store = testStore(120, 20);
  // Draws like a full-screen agent: a footer in the old width's right half; on SIGWINCH it
  // erases each row (EL 2, as diff renderers clear a row) and draws its idle composer.
  const script = Deno.makeTempFileSync({ suffix: ".sh" });
  Deno.writeTextFileSync(
    script,
    String.raw`redraw() {
  for r in $(seq 20); do printf '[%d;1H[2K' "$r"; done
  printf '[1;1H› Ask Codex to do anything[3;1Hredrawn'
}
trap redraw WINCH
printf '[?1049h[2J[1;1Hworking[19;70HPress enter to confirm or esc to cancel'
printf '[20;1Hdrawn'
while :; do sleep 0.05; done
`,
  );
  const session = store.create({ command: `exec bash ${script}` });
  using _ = { [Symbol.dispose]: () => Deno.removeSync(script) };
  await waitFor(
    session,
    () => session.visibleLines().includes("drawn"),
    15_000,
    "the first screen",
  );
  const codex = catalog.get("codex")!;
  assert.equal(
    classify(codex, session.screenView())?.state,
    "blocked",
    "the footer, at 120 columns",
  );
  session.resize(60, 20);
  await waitFor(session, () => session.visibleLines().includes("redrawn"), 15_000, "the redraw");
  const lines = session.visibleLines();
  const wide = lines.filter((l) => l.length > 60);
  assert.deepEqual(wide, [], "no row reads wider than the screen");
  assert.notEqual(
    classify(codex, session.screenView())?.state,
    "blocked",
    "the footer cleared by the redraw is not read",
  );
  // Wider again: nothing of before the narrowing comes back.
  session.resize(120, 20);
  await waitFor(session, () => session.visibleLines().includes("redrawn"), 15_000, "the redraw");
  assert.ok(!session.visibleLines().some((l) => l.includes("Press enter")), lines.join("\n"));
});
