import assert from "node:assert/strict";
import { HeadlessTerminal } from "../../session/terminal.ts";
import { BOLD, DEFAULT_COLOR, INVERSE, ITALIC, rgb, UNDERLINE } from "../../tui/frame.ts";
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
