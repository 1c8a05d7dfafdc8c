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
  assert.equal(bufferRows(t), 5000);
  const newest = searchBuffer(t, "needle", null, "older");
  assert.ok(newest);
  // Lines count up from the last row: "another NEEDLE" is 9 lines above "line 4999".
  assert.equal(newest.line, 9, "smart case: a lowercase query ignores case");
  assert.deepEqual([newest.col, newest.cells, newest.index, newest.total], [8, 6, 1, 2]);
  const older = searchBuffer(t, "needle", newest, "older");
  assert.ok(older);
  assert.equal(older.line, 3999, "4000 lines up from the bottom row");
  assert.deepEqual([older.col, older.index], [4, 2]);
  assert.equal(bufferText(t, older.line, older.line), "the needle is here");
  assert.equal(searchBuffer(t, "needle", older, "older"), null, "nothing older");
  assert.deepEqual(searchBuffer(t, "needle", older, "newer"), newest);
  assert.equal(searchBuffer(t, "Needle", null, "older"), null, "a capital means exact case");
  assert.equal(searchBuffer(t, "", null, "older"), null);
});

Deno.test("search and copy treat soft-wrapped rows as one line; wide characters count two cells", async () => {
  // 10 columns: the 24-character line wraps over three rows.
  using t = await terminal("abcdefghijKLMNOPQRSTuvwx\r\n界界 wide\r\nend", 10, 5);
  const hit = searchBuffer(t, "jklm", null, "older");
  assert.ok(hit);
  assert.deepEqual([hit.col, hit.cells], [9, 1], "a match across the wrap is clipped to its row");
  const wide = searchBuffer(t, "wide", null, "older");
  assert.ok(wide);
  assert.equal(wide.col, 5, "two wide characters and a space before it");
  assert.equal(searchBuffer(t, "界", null, "older")?.cells, 2);
  // Five rows: the wrapped line's three, then the other two.
  assert.equal(
    bufferText(t, 4, 0),
    "abcdefghijKLMNOPQRSTuvwx\n界界 wide\nend",
  );
});

Deno.test("search reads the alternate screen while a full-screen program shows it", async () => {
  using t = await terminal("normal text\r\n\x1b[?1049hfull screen\r\n");
  assert.equal(searchBuffer(t, "normal", null, "older"), null);
  assert.equal(searchBuffer(t, "full", null, "older")?.total, 1);
});

Deno.test("search and copy read rows in the compact store as the emulator holding every row", async () => {
  // Wrapped, wide, combining and coloured lines, scrolled far into the store (history.ts).
  const lines = [
    "abcdefghijKLMNOPQRSTuvwx",
    "界界 wide \x1b[31mred\x1b[0m e\u0301t\u00e9",
    ...Array.from({ length: 300 }, (_, i) => `filler ${i} 界`),
  ];
  const text = lines.join("\r\n");
  using compact = new HeadlessTerminal({ cols: 10, rows: 5, scrollback: 1000, margin: 4 });
  using whole = new HeadlessTerminal({ cols: 10, rows: 5, scrollback: 1000, margin: 1000 });
  for (const t of [compact, whole]) {
    t.write(text);
    await t.flush();
  }
  assert.ok(compact.history.stored > 500, "most rows are in the store");
  assert.equal(whole.history.stored, 0);
  assert.equal(bufferRows(compact), bufferRows(whole));
  for (const query of ["jklm", "wide", "界", "red", "e\u0301t", "filler 1", "x"]) {
    let a = searchBuffer(compact, query, null, "older");
    let b = searchBuffer(whole, query, null, "older");
    assert.deepEqual(a, b, query);
    for (let k = 0; k < 5 && a && b; k++) {
      a = searchBuffer(compact, query, a, "older");
      b = searchBuffer(whole, query, b, "older");
      assert.deepEqual(a, b, `${query}, ${k + 2}th`);
    }
  }
  const rows = bufferRows(whole);
  for (const [top, bottom] of [[rows - 1, rows - 8], [rows - 1, 0], [400, 390]]) {
    assert.equal(bufferText(compact, top!, bottom!), bufferText(whole, top!, bottom!));
  }
});
