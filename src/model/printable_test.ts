import assert from "node:assert/strict";
import { hasControls, plainText, printable } from "./printable.ts";

Deno.test("printable() escapes ESC, CR, BEL, DEL and C1 controls, keeps newlines, tabs and text", () => {
  assert.equal(
    printable("a\x1b]0;pwned\x07b\rc\x7fd\u009b31me\tf\ng é ✓"),
    "a\\x1b]0;pwned\\x07b\\x0dc\\x7fd\\u009b31me\tf\ng é ✓",
  );
  assert.equal(printable("plain"), "plain");
  assert.equal(printable("a\u202eb\u2066c\u200fd שלום"), "a\\u202eb\\u2066c\\u200fd שלום");
});

Deno.test("hasControls() sees every C0, DEL and C1 control, not ordinary text", () => {
  for (const c of ["\x00", "\x1b", "\n", "\t", "\x7f", "\u0085", "\u009f"]) {
    assert.ok(hasControls(`x${c}y`), JSON.stringify(c));
  }
  assert.ok(!hasControls("build-α ✓ 日本"));
});

Deno.test("plainText() drops escape sequences and controls, keeps the words", () => {
  const cases: [string, string][] = [
    ["\x1b]0;pwned\x07Allow Bash?", "Allow Bash?"],
    ["\x1b[31mred\x1b[0m text", "red text"],
    ["\x1b[2J\x1b[Hclear", "clear"],
    ["osc 52 \x1b]52;c;ZXZpbA==\x1b\\done", "osc 52 done"],
    ["\x9b31mC1 csi", "C1 csi"],
    ["\x1bPdcs\x1b\\after", "after"],
    ["a\rb\x07c\nd\te", "a b c d e"],
    ["\u202eevil\u202c", "evil"],
    ["unterminated \x1b]0;title", "unterminated "],
    ["trailing \x1b", "trailing "],
    ["plain é ✓ 日本", "plain é ✓ 日本"],
  ];
  for (const [input, want] of cases) assert.equal(plainText(input), want, JSON.stringify(input));
});
