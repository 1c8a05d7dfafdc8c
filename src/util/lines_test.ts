import assert from "node:assert/strict";
import fc from "fast-check";
import { LineSplitter, readLines } from "./lines.ts";

const enc = new TextEncoder();

Deno.test("lines split across chunks are joined, multi-byte characters intact", () => {
  const s = new LineSplitter(100);
  const bytes = enc.encode("héllo\nwörld\r\nlast");
  const out = [
    ...s.push(bytes.subarray(0, 2)),
    ...s.push(bytes.subarray(2, 9)),
    ...s.push(bytes.subarray(9)),
    ...s.end(),
  ];
  assert.deepEqual(out, [
    { type: "line", text: "héllo" },
    { type: "line", text: "wörld" },
    { type: "line", text: "last" },
  ]);
});

Deno.test("a line over the cap is reported as it passes the cap and skipped, the next one read", () => {
  const s = new LineSplitter(10);
  assert.deepEqual(s.push(enc.encode("ok\n0123456")), [{ type: "line", text: "ok" }]);
  assert.deepEqual(s.push(enc.encode("789abcdef")), [{ type: "oversize", bytes: 16 }]);
  assert.deepEqual(s.push(enc.encode("ghij")), [], "reported once, its rest skipped");
  assert.deepEqual(s.push(enc.encode("klm\nafter\n")), [{ type: "line", text: "after" }]);
  assert.deepEqual(s.end(), []);
  assert.deepEqual(new LineSplitter(10).push(enc.encode("0123456789\n")), [
    { type: "line", text: "0123456789" },
  ], "exactly the cap is allowed");
});

Deno.test("any chunking gives the same lines", () => {
  fc.assert(fc.property(
    fc.array(fc.string({ maxLength: 20 }).filter((s) => !s.includes("\n")), { maxLength: 10 }),
    fc.array(fc.nat(50), { maxLength: 10 }),
    (lines, cuts) => {
      const bytes = enc.encode(lines.map((l) => `${l}\n`).join(""));
      const s = new LineSplitter(1000);
      const got = [];
      let at = 0;
      for (const cut of cuts) {
        got.push(...s.push(bytes.subarray(at, Math.min(bytes.length, at + cut))));
        at = Math.min(bytes.length, at + cut);
      }
      got.push(...s.push(bytes.subarray(at)), ...s.end());
      const expected = lines.map((l) => ({ type: "line", text: l.replace(/\r$/, "") }));
      assert.deepEqual(got, expected);
    },
  ));
});

Deno.test("readLines reads a stream to its end", async () => {
  const stream = ReadableStream.from([enc.encode("a\nb"), enc.encode("c\n")]);
  const got = [];
  for await (const item of readLines(stream, 100)) got.push(item);
  assert.deepEqual(got, [{ type: "line", text: "a" }, { type: "line", text: "bc" }]);
});
