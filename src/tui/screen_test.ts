import assert from "node:assert/strict";
import fc from "fast-check";
import { HeadlessTerminal } from "../session/terminal.ts";
import { BOLD, DEFAULT_COLOR, INVERSE, ITALIC, rgb, UNDERLINE } from "./frame.ts";
import { maxScroll, readScreen } from "./screen.ts";

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
  const { frame } = readScreen(t.xterm);
  assert.equal(frame.rowText(0).trimEnd(), "RPTA ok");
  assert.deepEqual([frame.fg[0], frame.attrs[0]], [1, BOLD]);
  assert.equal(frame.fg[1], 200);
  assert.deepEqual([frame.fg[2], frame.bg[2]], [rgb(0x010203), rgb(0x040506)]);
  assert.equal(frame.attrs[3], ITALIC | UNDERLINE | INVERSE);
  assert.deepEqual([frame.fg[5], frame.bg[5], frame.attrs[5]], [DEFAULT_COLOR, DEFAULT_COLOR, 0]);
});

Deno.test("readScreen() keeps wide characters as a start cell and a continuation", async () => {
  using t = await terminal("a界b");
  const { frame } = readScreen(t.xterm);
  assert.deepEqual([...frame.widths.subarray(0, 4)], [1, 2, 0, 1]);
  assert.deepEqual(frame.chars.slice(0, 4), ["a", "界", "", "b"]);
});

Deno.test("readScreen() places the cursor, and hides it when the child did", async () => {
  using t = await terminal("\x1b[3;5Hx");
  assert.deepEqual(readScreen(t.xterm).frame.cursor, { x: 5, y: 2 });
  t.write("\x1b[?25l");
  await t.flush();
  assert.equal(readScreen(t.xterm).frame.cursor, null);
});

Deno.test("readScreen() shows the scrollback at an offset, clamped, without cursor", async () => {
  using t = await terminal(Array.from({ length: 10 }, (_, i) => `line ${i}`).join("\r\n"));
  assert.equal(maxScroll(t.xterm), 6);
  const up = readScreen(t.xterm, 2);
  assert.equal(up.offset, 2);
  assert.equal(up.frame.rowText(0).trimEnd(), "line 4");
  assert.equal(up.frame.cursor, null);
  const top = readScreen(t.xterm, 99);
  assert.equal(top.offset, 6);
  assert.equal(top.frame.rowText(0).trimEnd(), "line 0");
});

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
    fc.tuple(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 13 })).map(([y, x]) =>
      `\x1b[${y};${x}H`
    ),
    fc.string({ maxLength: 15 }).map((s) =>
      [...s].filter((c) => c >= " " && c !== "\x7f").join("")
    ),
  );
  fc.assert(
    fc.property(fc.array(chunks, { maxLength: 40 }), (writes) => {
      using t = new HeadlessTerminal({ cols: 12, rows: 6, scrollback: 20 });
      let kept = readScreen(t.xterm, 0, null, t.takeChangedRows()).frame;
      for (const w of writes) {
        t.write(w);
        kept = readScreen(t.xterm, 0, kept, t.takeChangedRows()).frame;
        const whole = readScreen(t.xterm).frame;
        assert.deepEqual(kept.chars, whole.chars, JSON.stringify(writes));
        assert.deepEqual([...kept.widths], [...whole.widths]);
        assert.deepEqual([...kept.fg], [...whole.fg]);
        assert.deepEqual([...kept.bg], [...whole.bg]);
        assert.deepEqual([...kept.attrs], [...whole.attrs]);
        assert.deepEqual(kept.cursor, whole.cursor);
      }
    }),
    { numRuns: 300 },
  );
});

Deno.test("an unchanged screen is not read again, and a scrolled-back view always is", async () => {
  using t = await terminal("one\r\ntwo");
  const first = readScreen(t.xterm, 0, null, t.takeChangedRows());
  assert.equal(first.rows, null);
  const again = readScreen(t.xterm, 0, first.frame, t.takeChangedRows());
  assert.deepEqual(again.rows, [4, 4], "no row read");
  assert.equal(again.frame.rowText(1).trimEnd(), "two");
  t.write("\x1b[1;1HONE");
  const changed = readScreen(t.xterm, 0, first.frame, t.takeChangedRows());
  assert.equal(changed.rows?.[0], 0);
  assert.equal(changed.frame.rowText(0).trimEnd(), "ONE");
  assert.equal(changed.frame.rowText(1).trimEnd(), "two");
  t.write("\r\n3\r\n4\r\n5\r\n6"); // one line into the scrollback
  const back = readScreen(t.xterm, 1, first.frame, { start: 0, end: 0 });
  assert.equal(back.rows, null);
  assert.equal(back.frame.rowText(0).trimEnd(), "ONE");
});
