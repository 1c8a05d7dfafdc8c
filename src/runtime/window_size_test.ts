import assert from "node:assert/strict";
import { policySize } from "./window_size.ts";

const panes = [{ cols: 74, rows: 27 }, { cols: 119, rows: 43 }, { cols: 150, rows: 20 }];

Deno.test("smallest and largest take each side on its own; latest and manual leave it to the claims", () => {
  assert.deepEqual(policySize("smallest", panes), { cols: 74, rows: 20 });
  assert.deepEqual(policySize("largest", panes), { cols: 150, rows: 43 });
  assert.equal(policySize("latest", panes), null);
  assert.equal(policySize("manual", panes), null);
  assert.equal(policySize("smallest", []), null);
});
