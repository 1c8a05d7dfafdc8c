import assert from "node:assert/strict";
import { HeadlessTerminal } from "./terminal.ts";
import { jsonBytes, readTail, type TailBuffer } from "./tail.ts";

async function terminal(bytes: string, cols = 20, rows = 4, scrollback = 5000) {
  const term = new HeadlessTerminal({ cols, rows, scrollback });
  term.write(bytes);
  await term.flush();
  return term;
}

/** The buffer's rows as read by tail(), counted. */
function counted(buffer: TailBuffer): { buffer: TailBuffer; reads: () => number } {
  let reads = 0;
  return {
    buffer: {
      get length() {
        return buffer.length;
      },
      getLine: (y) => {
        reads++;
        return buffer.getLine(y);
      },
    },
    reads: () => reads,
  };
}

/** What `--tail` means, the slow way: every row, joined, trailing blanks dropped. */
function reference(buffer: TailBuffer, count: number): string[] {
  const lines: string[] = [];
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y)!;
    const text = line.translateToString(true);
    if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
    else lines.push(text);
  }
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines.slice(Math.max(0, lines.length - count));
}

Deno.test("tail() reads only the rows it returns, not the whole scrollback", async () => {
  const text = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join("\r\n");
  using term = await terminal(text, 20, 4, 5000);
  const rows = term.history.normalRows();
  assert.ok(rows.length > 4000);
  assert.ok(term.history.stored > 4000, "most of it is in the compact store");
  const spy = counted(rows);
  assert.deepEqual(readTail(spy.buffer, 1).lines, ["line 4999"]);
  assert.ok(spy.reads() <= 8, `tail(1) read ${spy.reads()} rows of ${rows.length}`);
  const back = counted(rows);
  assert.deepEqual(readTail(back.buffer, 3).lines, ["line 4997", "line 4998", "line 4999"]);
  assert.ok(back.reads() <= 10, `tail(3) read ${back.reads()} rows`);
  assert.deepEqual(term.tail(2).lines, ["line 4998", "line 4999"]);
});

Deno.test("tail() gives what a walk of every row gives: wrapped rows, blank lines, trailing blanks", async () => {
  const cases = [
    "one\r\ntwo\r\nthree\r\nfour\r\n0123456789abc",
    "a\r\n\r\n\r\nb\r\n\r\n",
    "x".repeat(95) + "\r\nshort\r\n" + "y".repeat(41),
    "\r\n\r\n\r\n",
    "",
    "lead\r\n" + "z".repeat(200),
  ];
  for (const bytes of cases) {
    using term = await terminal(bytes, 20, 4, 100);
    for (const count of [0, 1, 2, 3, 5, 50]) {
      const expected = reference(term.history.normalRows(), count);
      assert.deepEqual(
        term.tail(count),
        { lines: expected, truncated: false },
        JSON.stringify(bytes),
      );
    }
  }
});

Deno.test("tail() stays within its byte budget: a 600,000-character line keeps its end", async () => {
  using term = await terminal("before\r\n" + "a".repeat(599_990) + "0123456789\r\n", 200, 50);
  const tail = term.tail(200, 64 * 1024);
  assert.equal(tail.truncated, true);
  assert.equal(tail.lines.length, 1);
  assert.ok(tail.lines[0]!.endsWith("a0123456789"));
  const bytes = tail.lines.reduce((n, l) => n + jsonBytes(l) + 3, 0);
  assert.ok(bytes <= 64 * 1024 && bytes > 60 * 1024, `${bytes} bytes`);
});

Deno.test("tail() drops the oldest lines first when they do not all fit", async () => {
  using term = await terminal("111\r\n222\r\n333\r\n", 20, 4);
  assert.deepEqual(term.tail(3, 13), { lines: ["222", "333"], truncated: true });
  assert.deepEqual(term.tail(3, 18), { lines: ["111", "222", "333"], truncated: false });
});

Deno.test("jsonBytes() counts a JSON string's UTF-8 bytes", () => {
  for (const s of ["plain", 'quote " and \\', "ctl \x01\n", "é─", "😀", ""]) {
    assert.equal(jsonBytes(s), new TextEncoder().encode(JSON.stringify(s)).length - 2, s);
  }
});
