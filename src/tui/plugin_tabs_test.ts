import assert from "node:assert/strict";
import {
  BLINK,
  BOLD,
  DIM,
  INVERSE,
  INVISIBLE,
  ITALIC,
  RGB_FLAG,
  STRIKE,
  UNDERLINE,
} from "./core/frame.ts";
import type { StyledLine } from "./core/frame.ts";
import { VIEW_ATTRS, VIEW_RGB_FLAG, type ViewSpan } from "../plugin/view.ts";

Deno.test("the plugin view encoding is the TUI frame's", () => {
  assert.equal(VIEW_RGB_FLAG, RGB_FLAG);
  assert.deepEqual(VIEW_ATTRS, {
    bold: BOLD,
    dim: DIM,
    italic: ITALIC,
    underline: UNDERLINE,
    blink: BLINK,
    inverse: INVERSE,
    invisible: INVISIBLE,
    strike: STRIKE,
  });
  const spans: ViewSpan[] = [{ text: "x", style: { fg: 1, attrs: BOLD } }];
  const line: StyledLine = spans; // compiles only while the shapes agree
  assert.equal(line.length, 1);
});
