import assert from "node:assert/strict";
import { UserError } from "../errors.ts";
import { checkGroupName, checkSessionName, isGroupName, isSessionName } from "./names.ts";

Deno.test("names: bidirectional controls are refused like control characters", () => {
  for (
    const c of ["\u202e", "\u202a", "\u202d", "\u2066", "\u2069", "\u200e", "\u200f", "\u061c"]
  ) {
    assert.equal(isSessionName(`web${c}1`), false, c.codePointAt(0)!.toString(16));
    assert.equal(isGroupName(`dev${c}`), false, c.codePointAt(0)!.toString(16));
  }
  assert.throws(
    () => checkSessionName("\u202e1-noisses"),
    (e) =>
      e instanceof UserError && /bidirectional/.test(e.message) && !e.message.includes("\u202e"),
  );
  assert.throws(() => checkGroupName("a\u2067b"), UserError);
  // Right-to-left letters themselves are names: only the controls are refused.
  assert.equal(isSessionName("שלום world"), true);
  assert.equal(isGroupName("مرحبا"), true);
  assert.equal(isSessionName("web 1"), true);
});
