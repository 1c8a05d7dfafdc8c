import assert from "node:assert/strict";
import fc from "fast-check";
import { HeadlessTerminal } from "../src/session/terminal.ts";
import { diff } from "../src/tui/core/diff.ts";
import { BOLD, Frame, INVERSE, rgb, UNDERLINE } from "../src/tui/core/frame.ts";
import { readScreen } from "../src/session/screen_read.ts";

function frame(cols: number, rows: number, draw: (f: Frame) => void = () => {}): Frame {
  const f = new Frame(cols, rows);
  draw(f);
  return f;
}

Deno.test("diff() applied through an emulator reproduces the frame (property)", async () => {
  // Diffs compose: replaying them into a real emulator gives each frame's text.
  using t = new HeadlessTerminal({ cols: 12, rows: 3 });
  const frames = [
    frame(12, 3, (f) => f.text(0, 0, "hello world")),
    frame(12, 3, (f) => f.text(0, 1, "界界 wide")),
    frame(12, 3, (f) => {
      f.text(0, 1, "a界b");
      f.text(11, 2, "Z");
    }),
    frame(12, 3, (f) => f.text(3, 2, "end")),
  ];
  let prev: Frame | null = null;
  for (const f of frames) {
    t.write(diff(prev, f));
    await t.flush();
    assert.deepEqual(t.visibleLines().map((l) => l.trimEnd()), f.toText().split("\n"));
    prev = f;
  }
});

/** One change to a frame: text at a place, in a style; or the cursor moved or hidden. */
type Edit =
  | { readonly kind: "text"; x: number; y: number; text: string; fg: number; attrs: number }
  | { readonly kind: "cursor"; x: number; y: number }
  | { readonly kind: "hide" };

const COLS = 9;
const ROWS = 4;
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({
    kind: fc.constant("text" as const),
    x: fc.nat(COLS - 1),
    y: fc.nat(ROWS - 1),
    text: fc.array(fc.constantFrom("a", "b", " ", "界", "é"), { minLength: 1, maxLength: 4 })
      .map((cs) => cs.join("")),
    fg: fc.constantFrom(-1, 2, 12, 200, rgb(0x102030)),
    attrs: fc.constantFrom(0, BOLD, INVERSE, UNDERLINE, BOLD | INVERSE),
  }),
  fc.record({ kind: fc.constant("cursor" as const), x: fc.nat(COLS - 1), y: fc.nat(ROWS - 1) }),
  fc.constant({ kind: "hide" as const }),
);

Deno.test("continued diffs through an emulator give each frame's cells and cursor (property)", async () => {
  // The echo path writes a run at the cursor alone (diff.ts `continued`): the emulator must
  // still show every frame exactly, colours, attributes and cursor (or its absence) included.
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.array(edit, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 8 }),
      fc.boolean(),
      async (steps, sync) => {
        using t = new HeadlessTerminal({ cols: COLS, rows: ROWS });
        let prev: Frame | null = null;
        for (const edits of steps) {
          const next = new Frame(COLS, ROWS);
          if (prev) {
            next.copyFrom(prev);
            next.cursor = prev.cursor;
          }
          for (const e of edits) {
            if (e.kind === "text") next.text(e.x, e.y, e.text, { fg: e.fg, attrs: e.attrs });
            else if (e.kind === "cursor") next.cursor = { x: e.x, y: e.y };
            else next.cursor = null;
          }
          t.write(diff(prev, next, { continued: true, sync }));
          await t.flush();
          const shown = readScreen(t, (c, r) => new Frame(c, r)).grid;
          assert.deepEqual(shown.toText(), next.toText());
          assert.deepEqual([...shown.fg], [...next.fg], "foreground colours");
          // A space is drawn only when it shows (diff.ts isBlank): bold on a blank is not sent.
          const shows = (f: Frame) =>
            [...f.attrs].map((a, i) => f.chars[i] === " " ? a & (INVERSE | UNDERLINE) : a);
          assert.deepEqual(shows(shown), shows(next), "attributes");
          assert.deepEqual(shown.cursor, next.cursor, "the cursor");
          prev = next;
        }
      },
    ),
    { numRuns: Number(Deno.env.get("DIFF_RUNS") ?? "300") },
  );
});

Deno.test("a key's echo at the cursor is written as the character alone", () => {
  const a = frame(10, 2, (f) => {
    f.text(0, 0, "$ ");
    f.cursor = { x: 2, y: 0 };
  });
  const b = frame(10, 2, (f) => {
    f.text(0, 0, "$ x");
    f.cursor = { x: 3, y: 0 };
  });
  assert.equal(diff(a, b, { continued: true, sync: true }), "x");
  // Not known to be where the last frame left it: placed, styled and shown as before.
  assert.equal(
    diff(a, b, { sync: true }).replaceAll("\x1b", "⎋"),
    "⎋[?2026h⎋[?25l⎋[1;3H⎋[0mx⎋[?25h⎋[?2026l",
  );
});
