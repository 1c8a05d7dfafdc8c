import assert from "node:assert/strict";
import { TailBuffer } from "./lines.ts";

const enc = new TextEncoder();

Deno.test("the tail keeps the last bytes and never starts with half a character", () => {
  const tail = new TailBuffer(5);
  tail.push(enc.encode("abc"));
  tail.push(enc.encode("dé")); // é is 2 bytes: window is "bcdé"
  assert.equal(tail.text(), "bcdé");
  tail.push(enc.encode("x")); // window "cdéx"? 5 bytes: c d 0xC3 0xA9 x
  assert.equal(tail.text(), "cdéx");
  tail.push(enc.encode("yz")); // 5 bytes: 0xC3 0xA9 x y z → é x y z
  assert.equal(tail.text(), "éxyz");
  tail.push(enc.encode("w")); // 0xA9 x y z w → continuation dropped
  assert.equal(tail.text(), "xyzw");
  tail.clear();
  assert.equal(tail.text(), "");
});
