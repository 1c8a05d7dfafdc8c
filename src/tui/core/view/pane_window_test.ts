import assert from "node:assert/strict";
import { initialTuiState, type TuiState } from "../../../model/tui.ts";
import { sessionView } from "../../../model/session.ts";
import { Frame } from "../frame.ts";
import { layout } from "../layout.ts";
import { drawPane } from "./pane.ts";
import { paneWindow, windowLabel, windowRows } from "./pane_window.ts";

/** A `cols`×`rows` screen with `line N` on rows 0..`used`-1, the cursor at (x, y). */
function screen(cols: number, rows: number, used: number, cursor: { x: number; y: number } | null) {
  const f = new Frame(cols, rows);
  for (let y = 0; y < used; y++) f.text(0, y, `line ${y}`);
  f.cursor = cursor;
  return f;
}

Deno.test("a screen that fits is shown whole from its origin", () => {
  const w = paneWindow(screen(80, 24, 24, { x: 5, y: 23 }), 100, 30);
  assert.deepEqual(w, {
    top: 0,
    left: 0,
    rows: 24,
    cols: 80,
    above: 0,
    below: 0,
    before: 0,
    after: 0,
  });
  assert.equal(windowLabel(w, screen(80, 24, 0, null), 80), "");
});

Deno.test("a taller screen: the window ends at the cursor or the last row used, whichever is lower", () => {
  // The shell after `seq 1 100`: the cursor on the last row.
  assert.equal(paneWindow(screen(120, 43, 43, { x: 2, y: 42 }), 74, 27).top, 16);
  // A fresh shell: its prompt on row 0, the window at the top.
  assert.equal(paneWindow(screen(120, 43, 1, { x: 2, y: 0 }), 74, 27).top, 0);
  // An agent's box drawn below its cursor (rows 0..39 used, the cursor in the box on 36).
  assert.equal(paneWindow(screen(120, 43, 40, { x: 4, y: 36 }), 74, 27).top, 13);
  // A hidden cursor: the last row used.
  const w = paneWindow(screen(120, 43, 30, null), 74, 27);
  assert.deepEqual([w.top, w.above, w.below, w.after], [3, 3, 13, 46]);
  // A cursor far above the last row used stays in view.
  assert.equal(paneWindow(screen(120, 43, 43, { x: 0, y: 5 }), 74, 27).top, 5);
});

Deno.test("a wider screen moves right only as far as the cursor needs", () => {
  assert.equal(paneWindow(screen(160, 10, 10, { x: 73, y: 0 }), 74, 10).left, 0);
  assert.equal(paneWindow(screen(160, 10, 10, { x: 74, y: 0 }), 74, 10).left, 1);
  assert.equal(paneWindow(screen(160, 10, 10, { x: 159, y: 0 }), 74, 10).left, 86);
});

Deno.test("the session's redrawn rows become the window's rows, clipped to it", () => {
  const w = paneWindow(screen(120, 43, 43, { x: 2, y: 42 }), 74, 27);
  assert.deepEqual(windowRows(w, [42, 43]), [26, 27]);
  assert.deepEqual(windowRows(w, [0, 10]), [0, 0]);
  assert.deepEqual(windowRows(w, [10, 20]), [0, 4]);
  assert.deepEqual(windowRows(paneWindow(screen(80, 20, 1, null), 74, 27), [30, 40]), [20, 20]);
});

Deno.test("the pane shows the rows around the cursor, says what is hidden, and cuts wide characters whole", () => {
  const s = screen(120, 43, 43, { x: 2, y: 42 });
  s.text(72, 42, "中文"); // 中 on 72–73 (shown), 文 on 74–75 (past the pane's 74 columns)
  s.text(0, 41, "中x"); // 中 on 0–1
  const state: TuiState = {
    ...initialTuiState(100, 30, 0),
    sessions: [sessionView("s1", { name: "bash" })],
    selected: "s1",
    mode: "terminal",
  };
  const pane = layout(100, 30).pane;
  const f = new Frame(100, 30);
  drawPane(f, pane, state, state.sessions[0]!, s, undefined);
  const last = pane.y + pane.height - 1; // the screen's row 42
  assert.equal(pane.width, 74);
  assert.match(f.rowText(pane.y), new RegExp(`session 120×43: ↑${43 - pane.height} →46 hidden $`));
  assert.equal(f.rowText(last).slice(pane.x, pane.x + 7), "line 42");
  assert.equal(f.cursor?.y, last);
  assert.equal(f.chars[f.index(pane.x + 72, last)], "中");
  assert.equal(f.widths[f.index(pane.x + 73, last)], 0);
  // A window moved right by one column cuts 中 of row 41 in half: a space, not half a character.
  s.cursor = { x: 74, y: 42 };
  const g = new Frame(100, 30);
  drawPane(g, pane, state, state.sessions[0]!, s, undefined);
  assert.equal(g.chars[g.index(pane.x, last - 1)], " ");
  assert.equal(g.widths[g.index(pane.x, last - 1)], 1);
  // At the right edge: 文 on 74–75 is now on 73–74, cut by the pane's last column.
  assert.equal(g.chars[g.index(pane.x + 73, last)], " ");
  assert.equal(g.cursor?.x, pane.x + 73);
});
