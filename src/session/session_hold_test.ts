/**
 * Session.holdInput (docs/tui.md, "The echo"): while keys are held, their
 * "input" events and the output read meanwhile wait; the echo awaited is
 * handed over before it is parsed when it is plain text; releasing emits
 * the events, then parses the output, in the order they have unheld (D7's
 * check sees the typing before the output the keys caused).
 */

import assert from "node:assert/strict";
import { testStore, waitForText } from "./test_util.ts";
import type { Cursor } from "../model/snapshot.ts";

Deno.test("held keys: the echo is handed over first, then the input event, then the parse", async () => {
  await using store = testStore(40, 10);
  const session = store.create({ command: "stty raw -echo; printf READY; exec cat" });
  await waitForText(session, "READY", 30_000);
  const events: string[] = [];
  session.on((e) => {
    if (e.type === "input" || e.type === "output") events.push(e.type);
  });
  const ahead: { text: string; at: Cursor; shown: boolean }[] = [];
  const onScreen = () => session.terminal.visibleLines().join("\n").includes("READYq");
  for (let attempt = 0; attempt < 20 && ahead.length === 0; attempt++) {
    events.length = 0;
    session.holdInput();
    session.write("q");
    session.awaitEcho(200, (text, at) => ahead.push({ text, at, shown: onScreen() }));
    assert.deepEqual(events, [], "nothing emitted while held");
    session.releaseInput();
    if (ahead.length === 0) {
      // The echo was late (a loaded machine): it comes on its own; erase it and try again.
      await waitForText(session, "READYq");
      session.write("\b \b");
      await waitForText(session, /READY\s*$/m);
    }
  }
  assert.equal(ahead.length, 1, "the echo was handed over");
  assert.deepEqual(ahead[0], { text: "q", at: { x: 5, y: 0 }, shown: false });
  assert.equal(events[0], "input", "the input event before the output it caused");
  assert.ok(onScreen(), "parsed once released");
  assert.ok(events.includes("output"));
});

Deno.test("held keys: output that is not plain text, or with no keys written, is not handed over", async () => {
  await using store = testStore(40, 10);
  const session = store.create({ command: "stty raw -echo; printf READY; exec cat" });
  await waitForText(session, "READY", 30_000);
  const ahead: string[] = [];
  // Nothing written: no wait at all (a wait would block this thread the whole 20 s; a loaded
  // machine may pause it a moment, never for 10 s).
  session.holdInput();
  const t0 = performance.now();
  session.awaitEcho(20_000, (text) => ahead.push(text));
  session.releaseInput();
  assert.ok(performance.now() - t0 < 10_000, "no wait when no key was written");
  // An escape sequence echoed: parsed, not handed over.
  session.holdInput();
  session.write("\x1b[1mB");
  session.awaitEcho(200, (text) => ahead.push(text));
  session.releaseInput();
  await waitForText(session, "READYB");
  assert.deepEqual(ahead, []);
});
