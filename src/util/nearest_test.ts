import assert from "node:assert/strict";
import { didYouMean, editDistance, nearest } from "./nearest.ts";

Deno.test("editDistance() counts edits, an adjacent swap as one", () => {
  assert.equal(editDistance("contrl", "control"), 1);
  assert.equal(editDistance("contorl", "control"), 1);
  assert.equal(editDistance("", "abc"), 3);
  assert.equal(editDistance("same", "same"), 0);
});

Deno.test("nearest() suggests only a close name", () => {
  const keys = ["scrollback", "shell", "control", "notify", "keys", "agents"];
  assert.equal(nearest("contrl", keys), "control");
  assert.equal(nearest("notfy", keys), "notify");
  assert.equal(nearest("colour", keys), null);
  assert.equal(nearest("key", keys), "keys");
  assert.equal(nearest("frobnicate", ["start", "serve", "doctor"]), null);
  assert.equal(nearest("doctr", ["start", "serve", "doctor"]), "doctor");
  assert.equal(didYouMean("shel", keys), ": did you mean shell?");
  assert.equal(didYouMean("zzz", keys), "");
});
