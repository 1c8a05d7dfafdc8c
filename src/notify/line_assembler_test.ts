import assert from "node:assert/strict";
import fc from "fast-check";
import { LineAssembler, renderLine } from "./line_assembler.ts";
import { SessionWatches } from "./watch_rules.ts";

function lines(chunks: string[], assembler = new LineAssembler()): string[] {
  const out: string[] = [];
  for (const c of chunks) assembler.push(c, (l) => out.push(l));
  return out;
}

Deno.test("renderLine() leaves what a terminal row would show", () => {
  const cases: [string, string][] = [
    ["plain", "plain"],
    ["crlf\r", "crlf"],
    ["double cr\r\r", "double cr"],
    ["\x1b[31;1mred\x1b[0m text", "red text"],
    ["ERR! 10%\r        \rall good", "all good"],
    ["abcdef\rXY", "XYcdef"],
    ["abcdef\r\x1b[2Kxy", "xy"],
    ["abcdef\x1b[3G\x1b[K!", "ab!"],
    ["Do\x1b[5Gyou\x1b[9Gwant", "Do  you want"],
    ["a\tb", "a\tb"],
    ["a\tb\x1b[1Gc", "c\tb"],
    ["abc\bd", "abd"],
    ["\x1b]0;title\x07shown", "shown"],
    ["\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"],
  ];
  for (const [raw, want] of cases) assert.equal(renderLine(raw), want, JSON.stringify(raw));
});

Deno.test("LineAssembler reports completed lines only, across chunk boundaries", () => {
  assert.deepEqual(lines(["one\r\ntw", "o\r\nthr", "ee"]), ["one", "two"]);
  // An escape sequence cut in two is carried over, not printed.
  assert.deepEqual(lines(["\x1b[3", "1mred\x1b", "[0m\r\n"]), ["red"]);
});

Deno.test("LineAssembler drops lines while the alternate screen is active", () => {
  const a = new LineAssembler();
  assert.deepEqual(
    lines(["before\r\n\x1b[?1049h", "vim line\r\n", "more\r\n\x1b[?1049", "lafter\r\n"], a),
    ["before", "after"],
  );
  assert.deepEqual(lines(["\x1b[?47hx\r\n\x1b[?47ly\r\n"]), ["y"]);
  // Other private modes are not the alternate screen.
  assert.deepEqual(lines(["\x1b[?2004hz\r\n"]), ["z"]);
  assert.equal(new LineAssembler(true).altScreen, true);
});

Deno.test("LineAssembler bounds a line that never ends", () => {
  const out = lines(["x".repeat(100_000), "\r\n"]);
  assert.equal(out.length, 1);
  assert.ok(out[0]!.length <= 16 * 1024);
});

const WORDS = [
  "ok",
  "GET",
  "/users",
  "ERR!",
  "ERROR",
  "panic:",
  "503",
  "\x1b[32m",
  "\x1b[0m",
  " ",
  "done",
];
const PATTERNS = ["ERR!", "\\bERROR\\b", "^panic:", "\\s503\\s", "d.ne"];

Deno.test("LineAssembler's block search reports exactly the lines that match", () => {
  fc.assert(
    fc.property(
      fc.array(fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }), { maxLength: 300 }),
      fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 20 }),
      fc.constantFrom("\r\n", "\n", "\r\r\n"),
      (rows, cuts, eol) => {
        const text = rows.map((r) => r.join("") + eol).join("");
        const chunks: string[] = [];
        for (let i = 0, k = 0; i < text.length; k++) {
          const n = cuts[k % cuts.length]!;
          chunks.push(text.slice(i, i + n));
          i += n;
        }
        const watches = new SessionWatches(PATTERNS.map((pattern) => ({ pattern, notify: true })));
        const fast = new LineAssembler(false, (t, from) => watches.find(t, from));
        const regexes = PATTERNS.map((p) => new RegExp(p));
        const matching = (ls: string[]) => ls.filter((l) => regexes.some((r) => r.test(l)));
        const expected = matching(rows.map((r) => renderLine(r.join(""))));
        assert.deepEqual(matching(lines(chunks, fast)), expected);
        assert.deepEqual(matching(lines(chunks)), expected);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("LineAssembler skips the prompt and the typed command line between OSC 133 A and C", () => {
  const got: string[] = [];
  const a = new LineAssembler();
  const A = "\x1b]133;A\x07";
  const B = "\x1b]133;B\x07";
  const C = "\x1b]133;C\x07";
  const D = "\x1b]133;D;1\x07";
  a.push(`${A}$ ${B}grep ERROR app.log\r\n${C}ERROR: disk full\r\n${D}`, (l) => got.push(l));
  a.push(`${A}user@host\r\n$ ${B}echo ERR`, (l) => got.push(l));
  a.push(`OR again\r\n${C}ERROR again\r\nno newline at the end`, (l) => got.push(l));
  a.push(`${D}${A}$ `, (l) => got.push(l));
  assert.deepEqual(got, ["ERROR: disk full", "ERROR again", "no newline at the end"]);
});
