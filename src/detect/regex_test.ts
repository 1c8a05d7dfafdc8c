import assert from "node:assert/strict";
import fc from "fast-check";
import { compileRegex, RegexError, unionOf } from "./regex.ts";

/** Patterns in the syntax both engines read the same way. */
const PATTERNS = [
  "ERR!",
  "\\bERROR\\b",
  "timeout after \\d+ ?ms",
  "\\s5\\d\\d\\s",
  "ECONNREFUSED|ECONNRESET",
  "\\bWARN(ING)?\\b.*deprecated",
  "exit (code|status) [1-9]",
  "^\\s*│\\s*(?:[●›❯>]\\s*)?\\d\\. Don.t",
  "^[◐◑]\\u{FE0E}? Qwen",
  "a{2,3}b|c+?d",
  "(?<word>\\w+)-x",
  "[^\\]\\n]*\\]$",
  "(?<=x)y",
  "\\p{Lu}\\p{Ll}+",
  "[\\s\\S]x",
  "\\x41\\cA\\/\\.",
  "(a+)+$",
  "^$",
  "[-a]b[a-]",
  "\\S+\\s",
];
const ALPHABET = [
  "a",
  "b",
  "c",
  "d",
  "x",
  "y",
  "E",
  "R",
  "!",
  " ",
  "\u00a0",
  "\t",
  "\n",
  "5",
  "0",
  "-",
  "]",
  "│",
  "❯",
  "◐",
  "\uFE0E",
  "A",
  "\x01",
  "/",
  ".",
  "Q",
  "w",
  "e",
  "n",
  "╰",
];

// Not \r: in multiline mode RE2's ^ and $ hold at \n only, V8's at \r too (docs/manifests.md).
Deno.test("compileRegex() matches what V8 matches, in both modes", () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...PATTERNS),
      fc.array(fc.constantFrom(...ALPHABET), { maxLength: 24 }).map((a) => a.join("")),
      fc.boolean(),
      (pattern, text, multiline) => {
        const ours = compileRegex(pattern, multiline);
        const v8 = new RegExp(pattern, multiline ? "mu" : "u");
        assert.equal(ours.test(text), v8.test(text), `${pattern} on ${JSON.stringify(text)}`);
      },
    ),
    { numRuns: 3000 },
  );
});

Deno.test("compileRegex() reads . and \\s as JavaScript does, not as RE2", () => {
  assert.equal(compileRegex("a.b").test("a\rb"), false);
  assert.equal(compileRegex("a\\sb").test("a\u00a0b"), true);
  assert.equal(compileRegex("a\\Sb").test("a\u2028b"), false);
});

Deno.test("compileRegex() answers (a+)+$ on a line that makes V8 backtrack forever", () => {
  const line = "a".repeat(5000) + "!";
  assert.equal(compileRegex("(a+)+$").test(line), false);
  assert.equal(compileRegex("^(\\w+\\s?)*$", true).test(line), false);
  assert.equal(compileRegex("(x+x+)+y").test("x".repeat(5000)), false);
});

Deno.test("compileRegex() refuses what needs backtracking, saying why", () => {
  const cases: [string, RegExp][] = [
    ["a(?=b)", /^Lookahead \(\?= is not supported \(patterns match in linear time\)$/],
    ["(?!x)y", /^Lookahead \(\?! is not supported/],
    ["(a)\\1", /^Back-reference \\1 is not supported/],
    ["(?<n>a)\\k<n>", /^Back-reference \\k is not supported/],
    ["(oops", /^Unterminated group$/],
    ["[a-", /^Unterminated character class$/],
    ["a)", /^Unmatched \)$/],
    ["[]", /^Empty character class/],
    ["\\e", /^Invalid escape \\e$/],
    ["a{1001}", /invalid repeat count/],
    ["*a", /^Nothing to repeat before \*/],
  ];
  for (const [pattern, reason] of cases) {
    assert.throws(
      () => compileRegex(pattern),
      (e) => e instanceof RegexError && reason.test(e.message),
    );
  }
});

Deno.test("compileRegex() takes RE2's \\A, \\z and inline flags", () => {
  assert.equal(compileRegex("end\\z", true).test("the end\n"), false);
  assert.equal(compileRegex("end\\z", true).test("the\nend"), true);
  assert.equal(compileRegex("\\Athe", true).test("x\nthe"), false);
  assert.equal(compileRegex("(?i)error").test("An ERROR"), true);
});

Deno.test("a prefilter is a quantifier-free part every match contains", () => {
  const filter = (p: string) => compileRegex(p).prefilter;
  assert.equal(filter("timeout after \\d+ ?ms"), "timeout after \\d");
  assert.equal(filter("\\s5\\d\\d\\s"), "\\s5\\d\\d\\s");
  assert.equal(filter("ECONNREFUSED|ECONNRESET"), "(?:ECONNREFUSED)|(?:ECONNRESET)");
  assert.equal(filter("Unhandled(Promise)?Rejection"), "Unhandled");
  assert.equal(filter("(a+)+$"), null);
  assert.equal(filter("(?i)error"), null);
  assert.equal(filter("x|(a+)+"), null);
  for (const p of PATTERNS) {
    const f = compileRegex(p).prefilter;
    const bare = f?.replace(/\(\?:|\\u\{[0-9a-f]+\}|\\p\{\w+\}/g, "");
    if (bare) assert.doesNotMatch(bare, /[*+?{]/, `${p} → ${f}`);
  }
});

Deno.test("unionOf() matches wherever one of its patterns does", () => {
  const union = unionOf(["ERR!", "(a+)+$", "\\bWARN\\b"].map((p) => compileRegex(p)))!;
  assert.equal(union.prefilter, null);
  assert.ok(union.test("x WARN y"));
  assert.ok(union.test("aaa"));
  assert.ok(!union.test("a".repeat(3000) + "!"));
  assert.equal(unionOf([]), null);
});

Deno.test("exec() and matches() give named groups and where they start, as String indices", () => {
  const option = compileRegex(
    "^\\s*(?:(?<selected>❯)\\s*)?(?<number>\\d+)\\.\\s+(?<label>\\S.*?)\\s*$",
    true,
  );
  const text = "Héllo 😀?\n ❯ 1. Yes ✳\n   2. No  ";
  const all = option.matches(text);
  assert.deepEqual(all.map((m) => [m.groups.label, m.groups.selected, m.groups.number]), [
    ["Yes ✳", "❯", "1"],
    ["No", undefined, "2"],
  ]);
  for (const m of all) {
    assert.equal(
      text.slice(m.starts.label, m.starts.label! + m.groups.label!.length),
      m.groups.label,
    );
  }
  assert.equal(option.exec(text)?.groups.label, "Yes ✳");
  assert.equal(option.exec("no menu here"), null);
  // Empty matches still move on; a prefilter that rejects the text finds nothing.
  assert.equal(compileRegex("x*").matches("ab").length, 3);
  assert.deepEqual(compileRegex("Esc to cancel").matches("Enter to select"), []);
});
