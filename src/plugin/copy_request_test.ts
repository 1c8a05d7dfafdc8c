import assert from "node:assert/strict";
import { osc52 } from "./copy_request.ts";
import { tmuxWrap } from "../notify/policy.ts";

Deno.test("osc52: exact bytes, UTF-8 encoded, and wrapped for tmux", () => {
  // printf 'agent/fix-é' | base64 → YWdlbnQvZml4LcOp
  assert.equal(osc52("agent/fix-é"), "\x1b]52;c;YWdlbnQvZml4LcOp\x07");
  assert.equal(osc52(""), "\x1b]52;c;\x07");
  assert.equal(
    tmuxWrap(osc52("feat")),
    "\x1bPtmux;\x1b\x1b]52;c;ZmVhdA==\x07\x1b\\",
  );
});
