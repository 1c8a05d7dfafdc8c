import assert from "node:assert/strict";
import { duplexPair } from "./memory_duplex.ts";

const bytes = (s: string) => new TextEncoder().encode(s);
const str = (b: Uint8Array) => new TextDecoder().decode(b);

Deno.test("duplexPair: each end reads what the other wrote, in order, in pieces its buffer holds", async () => {
  const [a, b] = duplexPair();
  await a.write(bytes("hello"));
  await a.write(bytes(" world"));
  const buf = new Uint8Array(4);
  const got: string[] = [];
  for (let i = 0; i < 3; i++) got.push(str(buf.subarray(0, (await b.read(buf))!)));
  assert.deepEqual(got, ["hell", "o", " wor"]);
  await b.write(bytes("back"));
  assert.equal(str(buf.subarray(0, (await a.read(buf))!)), "back");
});

Deno.test("duplexPair: a waiting read gets a later write; a close ends both ends' reads and writes", async () => {
  const [a, b] = duplexPair();
  const buf = new Uint8Array(16);
  const waiting = b.read(buf);
  await a.write(bytes("late"));
  assert.equal(await waiting, 4);
  const pending = a.read(buf);
  b.close();
  assert.equal(await pending, null);
  assert.equal(await b.read(buf), null);
  await assert.rejects(a.write(bytes("x")), /closed/);
});

Deno.test("duplexPair: a write is copied, what the writer does with its buffer later is not read", async () => {
  const [a, b] = duplexPair();
  const mine = bytes("abc");
  await a.write(mine);
  mine.set(bytes("xyz"));
  const buf = new Uint8Array(8);
  assert.equal(str(buf.subarray(0, (await b.read(buf))!)), "abc");
});
