import assert from "node:assert/strict";
import { encodeLine, type LineItem, readLines } from "./jsonl.ts";

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return ReadableStream.from(chunks.map((c) => encoder.encode(c)));
}

async function collect(chunks: string[], limit: number): Promise<LineItem[]> {
  const out: LineItem[] = [];
  for await (const item of readLines(streamOf(chunks), limit)) out.push(item);
  return out;
}

Deno.test("readLines() splits lines across and within chunks", async () => {
  const items = await collect(['{"a":', '1}\n{"b":2}\n{"c"', ":3}"], 100);
  assert.deepEqual(items, [
    { type: "line", text: '{"a":1}' },
    { type: "line", text: '{"b":2}' },
    { type: "line", text: '{"c":3}' },
  ]);
});

Deno.test("readLines() drops a line over the limit whole and keeps the next one", async () => {
  const items = await collect(["x".repeat(30), "y".repeat(30), "\nok\n"], 40);
  assert.deepEqual(items, [{ type: "oversize", bytes: 60 }, { type: "line", text: "ok" }]);
});

Deno.test("readLines() accepts a line of exactly the limit", async () => {
  const items = await collect(["abcd\n"], 4);
  assert.deepEqual(items, [{ type: "line", text: "abcd" }]);
});

Deno.test("readLines() counts bytes, not characters", async () => {
  const items = await collect(["éé\n"], 3);
  assert.deepEqual(items, [{ type: "oversize", bytes: 4 }]);
});

Deno.test("encodeLine() writes one JSON value and a newline", () => {
  assert.equal(new TextDecoder().decode(encodeLine({ a: "x\ny" })), '{"a":"x\\ny"}\n');
});
