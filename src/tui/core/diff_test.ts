import assert from "node:assert/strict";
import { diff, SYNC_BEGIN, SYNC_END } from "./diff.ts";
import { BOLD, Frame, rgb } from "./frame.ts";

const esc = (s: string) => s.replaceAll("\x1b", "⎋");

function frame(cols: number, rows: number, draw: (f: Frame) => void = () => {}): Frame {
  const f = new Frame(cols, rows);
  draw(f);
  return f;
}

Deno.test("diff() of two equal frames writes nothing", () => {
  const a = frame(10, 3, (f) => f.text(0, 0, "hello"));
  const b = frame(10, 3, (f) => f.text(0, 0, "hello"));
  assert.equal(diff(a, b), "");
  assert.equal(diff(a, b, { sync: true }), "");
});

Deno.test("diff() without a previous frame clears and draws only non-blank cells", () => {
  const f = frame(6, 2, (f) => f.text(1, 1, "ab", { fg: 2 }));
  assert.equal(
    esc(diff(null, f)),
    "⎋[?25l⎋[0m⎋[H⎋[2J⎋[2;2H⎋[0;32mab⎋[0m",
  );
});

Deno.test("diff() writes only the changed cells, with one move per run", () => {
  const a = frame(10, 2, (f) => f.text(0, 0, "hello"));
  const b = frame(10, 2, (f) => {
    f.text(0, 0, "hexlo");
    f.text(8, 1, "zz", { attrs: BOLD });
  });
  assert.equal(esc(diff(a, b)), "⎋[?25l⎋[1;3H⎋[0mx⎋[2;9H⎋[0;1mzz⎋[0m");
});

Deno.test("diff() repaints everything when the size changed", () => {
  const a = frame(4, 2, (f) => f.text(0, 0, "ab"));
  const b = frame(5, 2, (f) => f.text(0, 0, "ab"));
  assert.equal(esc(diff(a, b)), "⎋[?25l⎋[0m⎋[H⎋[2J⎋[1;1H⎋[0mab");
});

Deno.test("diff() places and shows the cursor, and hides it when it goes away", () => {
  const a = frame(4, 2);
  const b = frame(4, 2, (f) => (f.cursor = { x: 2, y: 1 }));
  assert.equal(esc(diff(a, b)), "⎋[2;3H⎋[?25h");
  assert.equal(esc(diff(b, a)), "⎋[?25l");
});

Deno.test("diff() wraps the update in synchronized output when asked", () => {
  const a = frame(4, 1);
  const b = frame(4, 1, (f) => f.text(0, 0, "x"));
  const out = diff(a, b, { sync: true });
  assert.ok(out.startsWith(SYNC_BEGIN) && out.endsWith(SYNC_END));
});

Deno.test("diff() rewrites a wide character when its second half changed", () => {
  const a = frame(6, 1, (f) => f.text(0, 0, "a界b"));
  assert.equal(a.rowText(0), "a界b  ");
  const b = frame(6, 1, (f) => f.text(0, 0, "a界b"));
  b.text(2, 0, "x"); // overwrites the continuation: the wide char is broken
  assert.equal(b.rowText(0), "a xb  ");
  assert.equal(esc(diff(a, b)), "⎋[?25l⎋[1;2H⎋[0m x");
  assert.equal(esc(diff(b, a)), "⎋[?25l⎋[1;2H⎋[0m界");
});

Deno.test("diff() emits 256-colour and truecolor SGR", () => {
  const a = frame(3, 1);
  const b = frame(3, 1, (f) => {
    f.text(0, 0, "a", { fg: 200, bg: 9 });
    f.text(1, 0, "b", { fg: rgb(0x102030) });
  });
  assert.equal(esc(diff(a, b)), "⎋[?25l⎋[1;1H⎋[0;38;5;200;101ma⎋[0;38;2;16;32;48mb⎋[0m");
});

Deno.test("diff() told which rows changed writes the same as a diff of every row", () => {
  const a = frame(12, 5, (f) => {
    f.text(0, 0, "top bar", { fg: 4 });
    f.text(0, 2, "spinner |");
    f.text(0, 4, "hints");
  });
  const b = frame(12, 5);
  b.copyFrom(a);
  b.text(0, 2, "spinner /", { attrs: BOLD });
  b.text(3, 3, "界");
  b.cursor = { x: 9, y: 2 };
  assert.equal(diff(a, b, { rows: [2, 4] }), diff(a, b));
  assert.equal(
    diff(a, b, { rows: [0, 0] }),
    diff(
      a,
      frame(12, 5, (f) => {
        f.copyFrom(a);
        f.cursor = b.cursor;
      }),
    ),
    "no row: only the cursor",
  );
  assert.equal(diff(null, b, { rows: [2, 3] }), diff(null, b), "a repaint draws every row");
});
