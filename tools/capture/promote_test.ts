import assert from "node:assert/strict";
import { quitAt, trimStreams } from "./promote.ts";

Deno.test("promote: a capture is cut where the quit key was typed", () => {
  const raw = new Uint8Array(100);
  const input = [
    { src: "user", note: "Enter (submit prompt)", byte_offset_in_raw: 10 },
    {
      src: "resize",
      note: "terminal resized to 80x24",
      byte_offset_in_raw: 50,
      cols: 80,
      rows: 24,
    },
    { src: "user", note: "quit key 1/2", byte_offset_in_raw: 80 },
    { src: "user", note: "quit key 2/2", byte_offset_in_raw: 90 },
  ];
  assert.deepEqual(quitAt(input), { index: 2, off: 80 });
  const t = trimStreams(
    raw,
    [{ off: 0, len: 60, b64: "x" }, { off: 60, len: 30, b64: "y" }, { off: 90, len: 10, b64: "z" }],
    input,
    [
      { byte_offset_in_raw: 10, state: "working", screen_settled_offset: 40 },
      { byte_offset_in_raw: 80, state: "done", screen_settled_offset: 95 },
      { byte_offset_in_raw: 81, state: "idle", screen_settled_offset: 95 },
    ],
  );
  assert.equal(t.raw.length, 80);
  assert.deepEqual(t.chunks, [{ off: 0, len: 60 }, { off: 60, len: 20 }]);
  assert.deepEqual(t.input.map((e) => e.src), ["user", "resize"]);
  // A label at the cut was drawn by the bytes before it.
  assert.deepEqual(t.timeline.map((l) => [l.state, l.screen_settled_offset]), [
    ["working", 40],
    ["done", 80],
  ]);
});
