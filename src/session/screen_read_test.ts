import assert from "node:assert/strict";
import fc from "fast-check";
import { HeadlessTerminal } from "./terminal.ts";
import { BOLD, Cells, DEFAULT_COLOR, INVERSE, ITALIC, rgb, UNDERLINE } from "../model/cells.ts";
import {
  cellRow,
  liveRow,
  maxScroll,
  readScreen,
  type ScreenRead,
  ScreenReader,
} from "./screen_read.ts";

const cells = (cols: number, rows: number) => new Cells(cols, rows);

/** The whole viewport `offset` lines up, read afresh. */
function whole(t: HeadlessTerminal, offset = 0): ScreenRead<Cells> & { frame: Cells } {
  const read = readScreen(t, cells, offset);
  return { ...read, frame: read.grid };
}

async function terminal(bytes: string, cols = 20, rows = 4): Promise<HeadlessTerminal> {
  const t = new HeadlessTerminal({ cols, rows, scrollback: 100 });
  t.write(bytes);
  await t.flush();
  return t;
}

Deno.test("readScreen() keeps characters, colours of every mode and attributes", async () => {
  using t = await terminal(
    "\x1b[1;31mR\x1b[0m\x1b[38;5;200mP\x1b[38;2;1;2;3;48;2;4;5;6mT\x1b[0m\x1b[3;4;7mA\x1b[0m ok",
  );
  const { frame } = whole(t);
  assert.equal(frame.rowText(0).trimEnd(), "RPTA ok");
  assert.deepEqual([frame.fg[0], frame.attrs[0]], [1, BOLD]);
  assert.equal(frame.fg[1], 200);
  assert.deepEqual([frame.fg[2], frame.bg[2]], [rgb(0x010203), rgb(0x040506)]);
  assert.equal(frame.attrs[3], ITALIC | UNDERLINE | INVERSE);
  assert.deepEqual([frame.fg[5], frame.bg[5], frame.attrs[5]], [DEFAULT_COLOR, DEFAULT_COLOR, 0]);
});

Deno.test("readScreen() keeps wide characters as a start cell and a continuation", async () => {
  using t = await terminal("a界b");
  const { frame } = whole(t);
  assert.deepEqual([...frame.widths.subarray(0, 4)], [1, 2, 0, 1]);
  assert.deepEqual(frame.chars.slice(0, 4), ["a", "界", "", "b"]);
});

Deno.test("readScreen() places the cursor, and hides it when the child did", async () => {
  using t = await terminal("\x1b[3;5Hx");
  assert.deepEqual(whole(t).frame.cursor, { x: 5, y: 2 });
  t.write("\x1b[?25l");
  await t.flush();
  assert.equal(whole(t).frame.cursor, null);
});

Deno.test("readScreen() shows the scrollback at an offset, clamped, without cursor", async () => {
  using t = await terminal(Array.from({ length: 10 }, (_, i) => `line ${i}`).join("\r\n"));
  assert.equal(maxScroll(t), 6);
  const up = whole(t, 2);
  assert.equal(up.offset, 2);
  assert.equal(up.frame.rowText(0).trimEnd(), "line 4");
  assert.equal(up.frame.cursor, null);
  const top = whole(t, 99);
  assert.equal(top.offset, 6);
  assert.equal(top.frame.rowText(0).trimEnd(), "line 0");
});

/** A cursor move to a row up to `rows` (one past the screen's 12 columns at most). */
const moveTo = (rows: number) =>
  fc.tuple(fc.integer({ min: 1, max: rows }), fc.integer({ min: 1, max: 13 })).map(([y, x]) =>
    `\x1b[${y};${x}H`
  );

/** Printable text of up to `max` characters. */
const printable = (max: number) =>
  fc.string({ maxLength: max }).map((s) => [...s].filter((c) => c >= " " && c !== "\x7f").join(""));

Deno.test("reading only the changed rows gives the same screen as reading all of it", () => {
  const chunks = fc.oneof(
    fc.constantFrom(
      "\r\n",
      "\x1b[2J",
      "\x1b[K",
      "\x1b[1J",
      "\x1b[?1049h",
      "\x1b[?1049l",
      "\x1b[?25l",
      "\x1b[?25h",
      "\x1b[31;1m",
      "\x1b[0m",
      "\x1b[38;2;9;8;7m",
      "界",
      "\b",
      "\x1b[2L",
      "\x1b[M",
      "\x1b[S",
    ),
    moveTo(7),
    printable(15),
  );
  fc.assert(
    fc.property(fc.array(chunks, { maxLength: 40 }), (writes) => {
      using t = new HeadlessTerminal({ cols: 12, rows: 6, scrollback: 20 });
      using reader = new ScreenReader(t, cells);
      let kept = reader.read(0, null).grid;
      for (const w of writes) {
        t.write(w);
        kept = reader.read(0, kept).grid;
        const all = whole(t).frame;
        assert.deepEqual(kept.chars, all.chars, JSON.stringify(writes));
        assert.deepEqual([...kept.widths], [...all.widths]);
        assert.deepEqual([...kept.fg], [...all.fg]);
        assert.deepEqual([...kept.bg], [...all.bg]);
        assert.deepEqual([...kept.attrs], [...all.attrs]);
        assert.deepEqual(kept.cursor, all.cursor);
      }
    }),
    { numRuns: 300 },
  );
});

Deno.test("an unchanged screen is not read again, and a scrolled-back view always is", async () => {
  using t = await terminal("one\r\ntwo");
  using reader = new ScreenReader(t, cells);
  const first = reader.read(0, null);
  assert.equal(first.rows, null);
  const again = reader.read(0, first.grid);
  assert.deepEqual(again.rows, [4, 4], "no row read");
  assert.equal(again.grid.rowText(1).trimEnd(), "two");
  t.write("\x1b[1;1HONE");
  const changed = reader.read(0, first.grid);
  assert.equal(changed.rows?.[0], 0);
  assert.equal(changed.grid.rowText(0).trimEnd(), "ONE");
  assert.equal(changed.grid.rowText(1).trimEnd(), "two");
  t.write("\r\n3\r\n4\r\n5\r\n6"); // one line into the scrollback
  const back = reader.read(1, first.grid);
  assert.equal(back.rows, null);
  assert.equal(back.grid.rowText(0).trimEnd(), "ONE");
  const live = reader.read(0, back.grid);
  assert.equal(live.rows, null, "after a scrolled-back read, the live screen is read whole");
});

Deno.test("two readers of one screen each read the rows changed since their own last read", async () => {
  using t = await terminal("one\r\ntwo");
  using a = new ScreenReader(t, cells);
  using b = new ScreenReader(t, cells);
  const ga = a.read(0, null).grid;
  const gb = b.read(0, null).grid;
  t.write("\x1b[1;1HONE");
  assert.equal(a.read(0, ga).grid.rowText(0).trimEnd(), "ONE");
  t.write("\x1b[2;1HTWO");
  const rb = b.read(0, gb);
  assert.deepEqual([rb.grid.rowText(0).trimEnd(), rb.grid.rowText(1).trimEnd()], ["ONE", "TWO"]);
});

Deno.test("a row read from xterm's cell words equals the same row read through its public cells", () => {
  // liveRow (rawLine, xterm's internals) against cellRow (getCell and its getters): every style
  // xterm keeps, extended underlines, wide and combined characters, erased and inserted cells.
  const chunks = fc.oneof(
    fc.constantFrom(
      "\r\n",
      "\x1b[K",
      "\x1b[2@",
      "\x1b[3P",
      "\x1b[1;2;3;4;5;7;8;9m",
      "\x1b[22;23;24;25;27;28;29m",
      "\x1b[4:3m",
      "\x1b[4:0m",
      "\x1b[58;5;3m",
      "\x1b[0m",
      "\x1b[31;44m",
      "\x1b[91;104m",
      "\x1b[38;5;200;48;5;17m",
      "\x1b[38;2;9;8;7;48;2;1;2;3m",
      "界",
      "e\u0301",
      "👩‍💻",
      "\x1b]8;;https://x.test\x07link\x1b]8;;\x07",
      "\x1b[?1049h",
      "\x1b[?1049l",
    ),
    moveTo(5),
    printable(12),
  );
  fc.assert(
    fc.property(fc.array(chunks, { maxLength: 40 }), (writes) => {
      using t = new HeadlessTerminal({ cols: 12, rows: 5, scrollback: 20 });
      assert.ok(t.rawLine, "xterm's cell words are readable (xterm_internals.ts activeLines)");
      for (const w of writes) t.write(w);
      const b = t.xterm.buffer.active;
      const live = cells(12, 1);
      const pub = cells(12, 1);
      // Each row is read over the last one: a reader writes the whole row.
      for (let y = 0; y < b.length; y++) {
        liveRow(t.rawLine(y)!, live, 0, 12);
        cellRow(b.getLine(y)!, b.getNullCell(), pub, 0, 12);
        const why = `row ${y} of ${JSON.stringify(writes)}`;
        assert.deepEqual(live.chars, pub.chars, why);
        assert.deepEqual([...live.widths], [...pub.widths], why);
        assert.deepEqual([...live.fg], [...pub.fg], why);
        assert.deepEqual([...live.bg], [...pub.bg], why);
        assert.deepEqual([...live.attrs], [...pub.attrs], why);
      }
    }),
    { numRuns: Number(Deno.env.get("SCREEN_READ_RUNS") ?? "300") },
  );
});

Deno.test("a scrolled-back view read into a used grid leaves nothing of it (short stored rows)", async () => {
  // Rows of the compact store and of xterm shorter than the screen: their cells past the end
  // must read blank, not as what the grid held before.
  using t = new HeadlessTerminal({ cols: 12, rows: 4, scrollback: 100, margin: 1 });
  t.write(Array.from({ length: 30 }, (_, i) => "ab".slice(0, 1 + (i % 2)) + i).join("\r\n"));
  await t.flush();
  assert.ok(t.history.stored > 0, "rows went to the store");
  for (const offset of [0, 5, 20]) {
    const used = cells(12, 4);
    used.chars.fill("x");
    used.fg.fill(3);
    used.attrs.fill(BOLD);
    const read = readScreen(t, cells, offset, used).grid;
    const fresh = whole(t, offset).frame;
    assert.deepEqual(read.chars, fresh.chars, `offset ${offset}`);
    assert.deepEqual([...read.fg], [...fresh.fg]);
    assert.deepEqual([...read.attrs], [...fresh.attrs]);
  }
});
