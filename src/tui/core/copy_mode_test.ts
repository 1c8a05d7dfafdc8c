import assert from "node:assert/strict";
import { initialTuiState, type TuiState } from "../../model/tui.ts";
import { sessionView } from "../../model/session.ts";
import type { SearchHit } from "../../model/search.ts";
import type { TuiEvent } from "./events.ts";
import { Frame } from "./frame.ts";
import { view } from "./view/mod.ts";
import { layout } from "./layout.ts";
import { keymap, keys, run } from "./test_util.ts";

/** One session of 10 rows with 990 lines of scrollback above them. */
function state(): TuiState {
  return {
    ...initialTuiState(100, 14, 0),
    sessions: [sessionView("a", { cols: 60, rows: 10 }), sessionView("b", { rows: 10 })],
    selected: "a",
  };
}

const key = (bytes: string): TuiEvent => keys(bytes)[0]!;

const hit = (line: number, index: number, total = 3): SearchHit => ({
  line,
  col: 4,
  cells: 6,
  index,
  total,
});

Deno.test("/ asks for the text and searches from the bottom, older first", () => {
  const typed = run(state(), key("/"), key("n"), key("e"), key("e"), key("d"), key("\r"));
  assert.deepEqual(typed.effects, [{
    type: "search",
    id: "a",
    query: "need",
    from: null,
    direction: "older",
  }]);
  assert.equal(typed.state.overlay, null);
  assert.equal(typed.state.mode, "navigation", "nothing changes until the search answers");
});

Deno.test("a found match starts copy mode with the cursor on it and the view scrolled to it", () => {
  const found = run(state(), {
    type: "search-result",
    id: "a",
    query: "needle",
    direction: "older",
    hit: hit(3999, 2),
    top: 4999,
  }).state;
  assert.equal(found.mode, "copy");
  assert.equal(found.copy?.cursor, 3999);
  assert.deepEqual(found.copy?.search, { query: "needle", hit: hit(3999, 2) });
  // The match is the top row of the view: offset + 9 = 3999.
  assert.equal(found.scroll.a, 3990);
  // n asks for the next older match from this one, N for the newer.
  const older = run(found, key("n"));
  assert.deepEqual(older.effects, [{
    type: "search",
    id: "a",
    query: "needle",
    from: { line: 3999, col: 4 },
    direction: "older",
  }]);
  assert.equal(run(found, key("N")).effects[0]?.type === "search", true);
  // Nothing further: a message, copy mode stays where it was.
  const none = run(found, {
    type: "search-result",
    id: "a",
    query: "needle",
    direction: "older",
    hit: null,
    top: 4999,
  }).state;
  assert.equal(none.copy?.cursor, 3999);
  assert.equal(none.message?.text, 'No older match for "needle"');
});

Deno.test("no match at all leaves navigation mode and says so", () => {
  const none = run(state(), {
    type: "search-result",
    id: "a",
    query: "zz",
    direction: "older",
    hit: null,
    top: 99,
  }).state;
  assert.equal(none.mode, "navigation");
  assert.equal(none.message?.text, 'No match for "zz"');
});

Deno.test("copy mode moves a line cursor, selects from a mark and copies those lines", () => {
  const started = run(state(), key("c"));
  assert.deepEqual(started.effects, [{ type: "copy-start", id: "a" }]);
  let s = run(started.state, { type: "copy-started", id: "a", top: 999, cursor: 2 }).state;
  assert.equal(s.mode, "copy");
  assert.equal(s.copy?.cursor, 2);
  s = run(s, key(" "), key("k"), key("k"), key("k")).state;
  assert.deepEqual([s.copy?.anchor, s.copy?.cursor], [2, 5]);
  const yank = run(s, key("y"));
  assert.deepEqual(yank.effects, [{ type: "copy-yank", id: "a", top: 5, bottom: 2 }]);
  assert.equal(yank.state.mode, "navigation");
  assert.equal(yank.state.copy, null);
  // Without a mark, y copies the cursor's line.
  const one = run(s, key("v"), key("\r"));
  assert.deepEqual(one.effects, [{ type: "copy-yank", id: "a", top: 5, bottom: 5 }]);
});

Deno.test("the view follows the cursor, clamped to the buffer; esc returns to the live screen", () => {
  let s = run(state(), { type: "copy-started", id: "a", top: 999, cursor: 0 }).state;
  s = run(s, key("g")).state;
  assert.deepEqual([s.copy?.cursor, s.scroll.a], [999, 990]);
  s = run(s, key("k")).state;
  assert.equal(s.copy?.cursor, 999, "nothing above the oldest line");
  s = run(s, key("\x1b[6~")).state; // pgdown: 9 lines
  assert.deepEqual([s.copy?.cursor, s.scroll.a], [990, 990]);
  s = run(s, key("G")).state;
  assert.deepEqual([s.copy?.cursor, s.scroll.a], [0, 0]);
  s = run(s, key("g"), key("q")).state;
  assert.deepEqual([s.mode, s.copy, s.scroll.a], ["navigation", null, 0]);
});

Deno.test("copy mode ends when the session on screen changes or goes", () => {
  const s = run(state(), { type: "copy-started", id: "a", top: 99, cursor: 0 }).state;
  const gone = run(s, { type: "sessions", sessions: [sessionView("b")] }).state;
  assert.deepEqual([gone.mode, gone.copy], ["navigation", null]);
  const tab = run({ ...s, tabs: [{ title: "T", capturing: false, commands: [] }] }, {
    type: "resume",
    selected: "a",
    tab: 1,
  }).state;
  assert.deepEqual([tab.mode, tab.copy], ["navigation", null]);
  // A late answer for a session no longer on screen changes nothing.
  const late = run({ ...state(), selected: "b" }, {
    type: "copy-started",
    id: "a",
    top: 9,
    cursor: 0,
  }).state;
  assert.equal(late.mode, "navigation");
});

Deno.test("the view marks the selection, the cursor line and the matches on screen", () => {
  let s = run(state(), {
    type: "search-result",
    id: "a",
    query: "needle",
    direction: "older",
    hit: { line: 7, col: 4, cells: 6, index: 1, total: 2 },
    top: 99,
  }).state;
  s = run(s, key("v"), key("j")).state; // selection lines 7..6, cursor on 6
  const screen = new Frame(60, 10);
  screen.text(0, 2, "the needle");
  screen.text(0, 3, "a NEEDLE too");
  const f = view(s, { keymap, screen, tabLines: null });
  const pane = layout(100, 14).pane;
  const at = (x: number, y: number) => f.index(pane.x + x, pane.y + y);
  // Row 2 shows line 7 (10 rows, offset 0): the current match, then row 3 (line 6) the cursor.
  assert.equal(f.bg[at(4, 2)], 208, "the current match");
  assert.equal(f.bg[at(2, 3)], 3, "the cursor line inside the selection");
  assert.equal(f.bg[at(2, 2)], 24, "the selection");
  assert.equal(f.bg[at(30, 5)], -1, "lines outside the selection keep their colours");
  assert.match(f.toText(), /COPY .* 2 lines · \/needle 1\/2/);
});

Deno.test("in a pane smaller than the session, the copy cursor stays among the rows the pane shows", () => {
  // 40 session rows in a 12-row pane (100×14): a view here is the screen's last 12 rows.
  const s0: TuiState = {
    ...state(),
    sessions: [sessionView("a", { cols: 60, rows: 40 })],
  };
  const pane = layout(100, 14).pane;
  let s = run(s0, { type: "copy-started", id: "a", top: 999, cursor: 0 }).state;
  for (let i = 0; i < 30; i++) {
    s = run(s, key("k")).state;
    const offset = s.scroll.a ?? 0;
    const line = s.copy!.cursor;
    assert.ok(line >= offset && line < offset + pane.height, `line ${line}, offset ${offset}`);
  }
  assert.equal(s.copy!.cursor, 30);
  assert.equal(s.scroll.a, 30 - pane.height + 1);
});
