import assert from "node:assert/strict";
import { HeadlessTerminal } from "../src/session/terminal.ts";
import { diff } from "../src/tui/diff.ts";
import { Frame } from "../src/tui/frame.ts";

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
