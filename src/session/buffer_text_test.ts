import assert from "node:assert/strict";
import { HeadlessTerminal } from "./terminal.ts";
import { bufferRows, bufferText, searchBuffer } from "./buffer_text.ts";

async function terminal(text: string, cols = 40, rows = 10, scrollback = 5000) {
  const t = new HeadlessTerminal({ cols, rows, scrollback });
  t.write(text);
  await t.flush();
  return t;
}

Deno.test("search finds a string 4000 lines back, then older and newer matches in turn", async () => {
  const lines = Array.from({ length: 5000 }, (_, i) => `line ${i}`);
  lines[1000] = "the needle is here";
  lines[4990] = "another NEEDLE";
  using t = await terminal(lines.join("\r\n"));
  assert.equal(bufferRows(t.xterm), 5000);
  const newest = searchBuffer(t.xterm, "needle", null, "older");
  assert.ok(newest);
  // Lines count up from the last row: "another NEEDLE" is 9 lines above "line 4999".
  assert.equal(newest.line, 9, "smart case: a lowercase query ignores case");
  assert.deepEqual([newest.col, newest.cells, newest.index, newest.total], [8, 6, 1, 2]);
  const older = searchBuffer(t.xterm, "needle", newest, "older");
  assert.ok(older);
  assert.equal(older.line, 3999, "4000 lines up from the bottom row");
  assert.deepEqual([older.col, older.index], [4, 2]);
  assert.equal(bufferText(t.xterm, older.line, older.line), "the needle is here");
  assert.equal(searchBuffer(t.xterm, "needle", older, "older"), null, "nothing older");
  assert.deepEqual(searchBuffer(t.xterm, "needle", older, "newer"), newest);
  assert.equal(searchBuffer(t.xterm, "Needle", null, "older"), null, "a capital means exact case");
  assert.equal(searchBuffer(t.xterm, "", null, "older"), null);
});

Deno.test("search and copy treat soft-wrapped rows as one line; wide characters count two cells", async () => {
  // 10 columns: the 24-character line wraps over three rows.
  using t = await terminal("abcdefghijKLMNOPQRSTuvwx\r\n界界 wide\r\nend", 10, 5);
  const hit = searchBuffer(t.xterm, "jklm", null, "older");
  assert.ok(hit);
  assert.deepEqual([hit.col, hit.cells], [9, 1], "a match across the wrap is clipped to its row");
  const wide = searchBuffer(t.xterm, "wide", null, "older");
  assert.ok(wide);
  assert.equal(wide.col, 5, "two wide characters and a space before it");
  assert.equal(searchBuffer(t.xterm, "界", null, "older")?.cells, 2);
  // Five rows: the wrapped line's three, then the other two.
  assert.equal(
    bufferText(t.xterm, 4, 0),
    "abcdefghijKLMNOPQRSTuvwx\n界界 wide\nend",
  );
});

Deno.test("search reads the alternate screen while a full-screen program shows it", async () => {
  using t = await terminal("normal text\r\n\x1b[?1049hfull screen\r\n");
  assert.equal(searchBuffer(t.xterm, "normal", null, "older"), null);
  assert.equal(searchBuffer(t.xterm, "full", null, "older")?.total, 1);
});
