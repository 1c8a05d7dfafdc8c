/**
 * One width everywhere (docs/tui.md "Frames and the diff"): the session emulator's cells,
 * the TUI frame and plugin view clipping all measure text with the table
 * generated from the emulator (src/util/width.ts). Emoji, CJK, combining
 * marks and a zero-width joiner sequence.
 */

import assert from "node:assert/strict";
import { HeadlessTerminal } from "../src/session/terminal.ts";
import { unicodeWidth } from "../src/session/xterm_internals.ts";
import { sanitizeView, visibleWidth } from "../src/plugin/view.ts";
import { Frame } from "../src/tui/core/frame.ts";
import { readScreen } from "../src/session/screen_read.ts";
import { Cells } from "../src/model/cells.ts";
import { charWidth, stringWidth } from "../src/util/width.ts";

const SAMPLES = [
  "🚀 launch",
  "✅ done ⚡ fast",
  "中文字 CJK",
  "e\u0301 combining",
  "👩‍💻 zwj",
  "Ａｂ",
];

Deno.test("the width table is the emulator's, for every code point", () => {
  using term = new HeadlessTerminal({ cols: 10, rows: 2 });
  const emulator = unicodeWidth(term.xterm);
  assert.ok(emulator, "the emulator's width function (xterm_internals.ts)");
  const wrong: string[] = [];
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (charWidth(cp) !== emulator(cp) && wrong.length < 20) {
      wrong.push(`U+${cp.toString(16)}: ${charWidth(cp)} vs ${emulator(cp)}`);
    }
  }
  assert.deepEqual(wrong, [], "regenerate: deno run -A tools/width_table.ts");
  // Drawn one column wide by the emulator before it took Unicode 11 widths (xterm's default is 6).
  assert.deepEqual(["🚀", "✅", "⚡"].map((c) => emulator(c.codePointAt(0)!)), [2, 2, 2]);
});

Deno.test("emulator cells, TUI frame and plugin views agree on emoji, CJK and combining marks", async () => {
  for (const text of SAMPLES) {
    using term = new HeadlessTerminal({ cols: 40, rows: 2 });
    await new Promise<void>((resolve) => term.write(text, resolve));
    const width = stringWidth(text);
    assert.equal(term.xterm.buffer.active.cursorX, width, `emulator cursor after ${text}`);
    // The pane copies the emulator's cells; the TUI draws its own text into a frame.
    const screen = readScreen(term, (cols, rows) => new Cells(cols, rows)).grid;
    const drawn = new Frame(40, 1);
    const end = drawn.text(0, 0, text);
    assert.equal(end, width, `frame end of ${text}`);
    assert.deepEqual(
      [...drawn.widths.subarray(0, width)],
      [...screen.widths.subarray(0, width)],
      `cell widths of ${text}`,
    );
    assert.equal(visibleWidth(text), width, `plugin view width of ${text}`);
  }
});

Deno.test("a plugin line is clipped where the frame would clip it", () => {
  const [line] = sanitizeView("🚀✅⚡abc", { width: 5, height: 1 });
  assert.equal(line, "🚀✅");
  assert.equal(visibleWidth(line!), 4, "a wide character that does not fit is not half drawn");
  const frame = new Frame(5, 1);
  assert.equal(frame.text(0, 0, "🚀✅⚡abc"), 5);
  assert.deepEqual(frame.chars.join("|"), "🚀||✅|| ");
});
