import assert from "node:assert/strict";
import { Screens } from "./screens.ts";
import { testStore, waitFor, waitForText } from "../session/test_util.ts";

// A program that redraws inside a synchronized update, one step per line typed to it.
const REDRAW = String.raw`stty -echo; printf 'first frame'; read _; ` +
  String.raw`printf '\033[?2026h\033[H\033[2Jhalf'; read _; ` +
  String.raw`printf ' drawn\033[?2026l'; sleep 60`;

Deno.test("Screens shows the last whole frame while a synchronized update draws the next", async () => {
  await using store = testStore(40, 5);
  const session = store.create({ name: "sync", command: REDRAW });
  using screens = new Screens((id) => store.get(id));
  const shown = () => screens.read(session.id, 0)!.grid.rowText(0).trimEnd();
  await waitForText(session, "first frame");
  assert.equal(shown(), "first frame");

  session.write("\r");
  await waitFor(session, () => session.midUpdate && /half/.test(session.visibleLines()[0]!));
  assert.equal(shown(), "first frame", "the half-drawn frame is held back");
  assert.deepEqual(screens.read(session.id, 0)!.rows, [0, 0]);

  session.write("\r");
  await waitFor(session, () => !session.midUpdate);
  assert.equal(shown(), "half drawn");
});
