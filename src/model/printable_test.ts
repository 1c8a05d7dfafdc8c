import assert from "node:assert/strict";
import { hasControls, printable } from "./printable.ts";

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
