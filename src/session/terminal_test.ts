import assert from "node:assert/strict";
import { OSC7501_QUERY_REPLY } from "../model/agent.ts";
import { HeadlessTerminal, parseOsc133 } from "./terminal.ts";
import type { TerminalEvent } from "./terminal_events.ts";

async function feed(bytes: string, cols = 40, rows = 6) {
  const replies: string[] = [];
  const events: TerminalEvent[] = [];
  using term = new HeadlessTerminal({ cols, rows, reply: (d) => replies.push(d) });
  term.on((e) => events.push(e));
  term.write(bytes);
  await term.flush();
  return { replies, events, lines: term.visibleLines(), title: term.title, alt: term.altScreen };
}

Deno.test("OSC 133 marks become typed events with the exit code", async () => {
  const { events } = await feed("\x1b]133;A\x07$ \x1b]133;B\x07ls\x1b]133;C\x07\x1b]133;D;2\x07");
  assert.deepEqual(events, [
    { type: "osc133", mark: "A", exitCode: null },
    { type: "osc133", mark: "B", exitCode: null },
    { type: "osc133", mark: "C", exitCode: null },
    { type: "osc133", mark: "D", exitCode: 2 },
  ]);
});

Deno.test("parseOsc133() ignores unknown marks and non-numeric codes", () => {
  assert.equal(parseOsc133("Z"), null);
  assert.deepEqual(parseOsc133("D;x"), { type: "osc133", mark: "D", exitCode: null });
  assert.deepEqual(parseOsc133("D;0;aid=1"), { type: "osc133", mark: "D", exitCode: 0 });
});

Deno.test("OSC 9 and OSC 777 notifications from the child are reported; OSC 9;4 progress is not", async () => {
  const { events } = await feed(
    "\x1b]9;Claude needs your permission\x07\x1b]9;4;1;50\x07\x1b]777;notify;Claude Code;Task done\x07",
  );
  assert.deepEqual(events, [
    { type: "child-notify", osc: 9, title: null, body: "Claude needs your permission" },
    { type: "child-notify", osc: 777, title: "Claude Code", body: "Task done" },
  ]);
});

Deno.test("OSC 7501 records are passed on raw and the query is answered at once", async () => {
  const { events, replies } = await feed("\x1b]7501;?\x07\x1b]7501;state=working:app=x\x1b\\");
  assert.deepEqual(events, [
    { type: "osc7501-query" },
    { type: "osc7501", payload: "state=working:app=x" },
  ]);
  assert.deepEqual(replies, [OSC7501_QUERY_REPLY]);
});

Deno.test("the 7501 answer goes out before the DA1 reply of the same write", async () => {
  // Claude Code probes XTVERSION, kitty keyboard, 7501 and DA1 in one write and
  // declares states only when 7501 is answered before DA1.
  const { replies } = await feed("\x1b[>0q\x1b[?u\x1b]7501;?\x07\x1b[c");
  assert.deepEqual(replies, [OSC7501_QUERY_REPLY, "\x1b[?1;2c"]);
});

Deno.test("colour queries (OSC 10/11) get an answer", async () => {
  const { replies } = await feed("\x1b]10;?\x1b\\\x1b]11;?\x07");
  assert.equal(replies.length, 2);
  const [fg, bg] = replies.map((r) => JSON.stringify(r));
  assert.match(fg ?? "", /^"\\u001b\]10;rgb:[0-9a-f]{4}\/[0-9a-f]{4}\/[0-9a-f]{4}\\u001b\\\\"$/);
  assert.match(bg ?? "", /^"\\u001b\]11;rgb:/);
});

Deno.test("title, bell and alternate screen are reported; replay without replies answers nothing", async () => {
  const events: TerminalEvent[] = [];
  using term = new HeadlessTerminal({ cols: 20, rows: 4 });
  term.on((e) => events.push(e));
  term.write("\x1b]0;✳ Claude Code\x07\x07\x1b[?1049hfull\x1b]7501;?\x07");
  await term.flush();
  assert.equal(term.title, "✳ Claude Code");
  assert.equal(term.altScreen, true);
  assert.deepEqual(events.map((e) => e.type), ["title", "bell", "alt-screen", "osc7501-query"]);
});

Deno.test("visible lines are the screen, tail() includes scrollback and joins wrapped rows", async () => {
  using term = new HeadlessTerminal({ cols: 10, rows: 3 });
  term.write("one\r\ntwo\r\nthree\r\nfour\r\n0123456789abc");
  await term.flush();
  assert.deepEqual(term.visibleLines(), ["four", "0123456789", "abc"]);
  assert.deepEqual(term.tail(3).lines, ["three", "four", "0123456789abc"]);
});

Deno.test("a write is on screen when write() returns (no setTimeout(0) per chunk)", () => {
  using term = new HeadlessTerminal({ cols: 20, rows: 3 });
  assert.equal(
    term.parsesAtOnce,
    true,
    "xterm's private write-queue field is gone: see WriteQueue",
  );
  let done = false;
  term.write("hello", () => done = true);
  assert.equal(done, true);
  assert.equal(term.visibleLines()[0]?.trimEnd(), "hello");
  term.write("\r\nworld");
  assert.equal(term.visibleLines()[1]?.trimEnd(), "world");
});

Deno.test("a write after dispose still calls back (nothing waits forever on a removed session)", () => {
  const term = new HeadlessTerminal({ cols: 20, rows: 3 });
  term[Symbol.dispose]();
  let done = false;
  term.write("late", () => done = true);
  assert.equal(done, true);
});

Deno.test("trackRows() reports the rows a write redrew; scrolling, resizing and the alternate screen report all", () => {
  using t = new HeadlessTerminal({ cols: 20, rows: 6 });
  using rows = t.trackRows();
  assert.equal(rows.take(), "all", "nothing read yet");
  assert.equal(rows.take(), null);
  t.write("\x1b[4;1H");
  rows.take(); // a cursor move marks the row it leaves and the row it enters
  t.write("spinner |");
  assert.deepEqual(rows.take(), { start: 3, end: 3 });
  t.write("\r-");
  t.write("\r\\");
  assert.deepEqual(rows.take(), { start: 3, end: 3 }, "writes between two looks add up");
  t.write("\x1b[2;1Ha\x1b[5;1Hb");
  assert.deepEqual(rows.take(), { start: 1, end: 4 });
  t.write("\x1b[6;1H\r\nscrolled");
  assert.equal(rows.take(), "all");
  t.resize(30, 6);
  assert.equal(rows.take(), "all");
  t.write("\x1b[?1049h");
  assert.equal(rows.take(), "all");
});

Deno.test("two readers each see every change, whoever took first", () => {
  using t = new HeadlessTerminal({ cols: 20, rows: 6 });
  using a = t.trackRows();
  using b = t.trackRows();
  t.write("\x1b[3;1H");
  a.take();
  b.take();
  t.write("x");
  assert.deepEqual(a.take(), { start: 2, end: 2 });
  t.write("\r\ny");
  assert.deepEqual(a.take(), { start: 2, end: 3 });
  assert.deepEqual(b.take(), { start: 2, end: 3 }, "b still has both writes");
  assert.equal(a.take(), null);
});

Deno.test("erase above (ED 1, DECSED 1) in the bottom-right corner of a screen that never scrolled erases and parsing goes on", () => {
  for (const seq of ["\x1b[1J", "\x1b[?1J"]) {
    using t = new HeadlessTerminal({ cols: 6, rows: 3 });
    t.write("AAAAAABBBBBBCCCCC\x1b[3;6H");
    t.write(seq); // @xterm/headless 6.0.0 throws here on its own
    t.write("\x1b[1;1Hok");
    assert.deepEqual(t.visibleLines(), ["ok", "", ""], seq);
  }
});

Deno.test("a write the emulator throws on calls back, and the next writes still show", () => {
  using t = new HeadlessTerminal({ cols: 20, rows: 3 });
  // Stands for any emulator bug: a handler that throws mid-write.
  t.xterm.parser.registerCsiHandler({ final: "Z" }, () => {
    throw new Error("emulator bug");
  });
  let called = false;
  assert.throws(() => t.write("before\x1b[Zlost", () => called = true), /emulator bug/);
  assert.equal(called, true);
  t.write("\r\nafter");
  assert.deepEqual(t.visibleLines().slice(0, 2), ["before", "after"]);
});

Deno.test("plainTextAt() says where plain text prints as it is, and only then (xterm's internals)", () => {
  using term = new HeadlessTerminal({ cols: 20, rows: 4 });
  const after = (bytes: string, text = "ab") => {
    term.write(`\x1bc${bytes}`);
    return term.plainTextAt(text);
  };
  assert.deepEqual(after("\x1b[2;5H"), { x: 4, y: 1 }, "the internals this needs are there");
  assert.deepEqual(after("x\x1b[1m\x1b[0m"), { x: 1, y: 0 }, "the pen reset again");
  assert.equal(after("\x1b[1m"), null, "a pen the program set");
  assert.equal(after("\x1b[41m"), null, "a background");
  assert.equal(after("\x1b["), null, "inside a CSI");
  assert.equal(after("\x1b]0;title"), null, "inside an OSC");
  assert.equal(after("\x1b(0"), null, "DEC graphics");
  assert.equal(after("\x1b[4h"), null, "insert mode");
  assert.deepEqual(after("\x1b[1;18H"), { x: 17, y: 0 }, "ends before the last column");
  assert.equal(after("\x1b[1;19H"), null, "reaches the last column");
  assert.equal(after("", "a\tb"), null, "a control character");
  assert.equal(after("", "é"), null, "not ASCII");
  assert.equal(after("", ""), null, "nothing");
});
