import assert from "node:assert/strict";
import { osc52 } from "./clipboard.ts";

Deno.test("osc52() writes the text as base64 in OSC 52, BEL-terminated", () => {
  assert.equal(osc52("hello", false), "\x1b]52;c;aGVsbG8=\x07");
  // UTF-8 first: "é界" is c3 a9 e7 95 8c.
  assert.equal(osc52("é界\n", false), "\x1b]52;c;w6nnlYwK\x07");
  assert.equal(osc52("", false), "\x1b]52;c;\x07");
});

Deno.test("osc52() inside tmux is wrapped for passthrough with every ESC doubled", () => {
  assert.equal(osc52("hello", true), "\x1bPtmux;\x1b\x1b]52;c;aGVsbG8=\x07\x1b\\");
});

Deno.test("osc52() encodes long text whole", () => {
  const text = "x".repeat(100_000) + "end";
  const out = osc52(text, false);
  const b64 = out.slice("\x1b]52;c;".length, -1);
  assert.equal(new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))), text);
});
