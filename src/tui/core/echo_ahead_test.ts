import assert from "node:assert/strict";
import { echoPane, recordEchoAhead } from "./echo_ahead.ts";
import { Frame } from "./frame.ts";
import { layout } from "./layout.ts";
import { initialTuiState, type TuiState } from "../../model/tui.ts";

const PANE = { x: 10, y: 1, width: 20, height: 5 };

/** A frame whose cursor stands on the session's cursor (3, 2) in PANE, with "界" at pane column 8. */
function shown(): Frame {
  const f = new Frame(30, 6);
  f.text(10, 3, "ab", { fg: 1 });
  f.put(18, 3, "界", 2, {});
  f.cursor = { x: 13, y: 3 };
  return f;
}

Deno.test("recordEchoAhead records plain text at the host cursor, in the default pen, and moves it", () => {
  const f = shown();
  const cursor = f.cursor;
  assert.equal(recordEchoAhead(f, PANE, "xyz", { x: 3, y: 2 }), true);
  assert.equal(f.toText().split("\n")[3]!.slice(10, 16), "ab xyz");
  assert.deepEqual([f.fg[3 * 30 + 13], f.bg[3 * 30 + 13], f.attrs[3 * 30 + 13]], [-1, -1, 0]);
  assert.deepEqual(f.cursor, { x: 16, y: 3 });
  assert.notEqual(f.cursor, cursor, "a new cursor object (frames share theirs)");
});

Deno.test("recordEchoAhead records nothing where the guess would break something", () => {
  const cases: [string, string, { x: number; y: number }][] = [
    ["the host cursor is not the session's", "x", { x: 2, y: 2 }],
    ["it would overwrite half of a wide character", "xyzabc", { x: 3, y: 2 }],
    ["it reaches the pane's right edge", "x".repeat(17), { x: 3, y: 2 }],
  ];
  for (const [why, text, at] of cases) {
    const f = shown();
    const before = f.toText();
    assert.equal(recordEchoAhead(f, PANE, text, at), false, why);
    assert.equal(f.toText(), before, why);
    assert.deepEqual(f.cursor, { x: 13, y: 3 }, why);
  }
  const onRightHalf = shown();
  onRightHalf.cursor = { x: 19, y: 3 };
  assert.equal(recordEchoAhead(onRightHalf, PANE, "x", { x: 9, y: 2 }), false, "on a right half");
  const hidden = shown();
  hidden.cursor = null;
  assert.equal(recordEchoAhead(hidden, PANE, "x", { x: 3, y: 2 }), false, "no cursor shown");
});

Deno.test("echoPane: the selected session typed into, alone at its live screen; else none", () => {
  const base: TuiState = { ...initialTuiState(80, 24, 0), selected: "s1", mode: "terminal" };
  assert.deepEqual(echoPane(base, "s1"), layout(80, 24).pane);
  const refused: [string, TuiState, string][] = [
    ["another session", base, "s2"],
    ["navigation mode", { ...base, mode: "navigation" }, "s1"],
    ["a plugin tab", { ...base, tab: 1 }, "s1"],
    ["tiles", { ...base, tiles: "pinned" }, "s1"],
    ["scrolled back", { ...base, scroll: { s1: 3 } }, "s1"],
    ["an overlay", { ...base, overlay: { type: "help" } }, "s1"],
  ];
  for (const [why, state, id] of refused) assert.equal(echoPane(state, id), null, why);
});
