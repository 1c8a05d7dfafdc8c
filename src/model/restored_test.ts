import assert from "node:assert/strict";
import { belowRestoredRule, RESTORED_RULE } from "./restored.ts";
import type { ScreenView } from "./snapshot.ts";

function view(lines: string[]): ScreenView {
  return { cols: 80, rows: lines.length, title: "", line: (y) => lines[y] ?? "" };
}

Deno.test("belowRestoredRule(): the old screen above the rule reads blank, the rows stay", () => {
  const old = view(["Usage limit reached · resets 1am", RESTORED_RULE, "ready> "]);
  const below = belowRestoredRule(old)!;
  assert.equal(below.rows, 3);
  assert.deepEqual([0, 1, 2].map((y) => below.line(y)), ["", "", "ready> "]);
});

Deno.test("belowRestoredRule(): the last rule counts; none: null", () => {
  const twice = view(["a", RESTORED_RULE, "b", RESTORED_RULE, "c"]);
  assert.deepEqual([0, 1, 2, 3, 4].map((y) => belowRestoredRule(twice)!.line(y)), [
    "",
    "",
    "",
    "",
    "c",
  ]);
  assert.equal(belowRestoredRule(view(["a", "b"])), null);
});
