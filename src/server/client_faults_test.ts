import assert from "node:assert/strict";
import { clientOwner, REPEAT_MS } from "./client_faults.ts";

function owner() {
  let now = 0;
  const done: string[] = [];
  const o = clientOwner(
    "client-3",
    {
      reset: () => done.push("reset"),
      drop: (message) => done.push(`drop: ${message}`),
    },
    "/data/crash.log",
    () => now,
  );
  return { o, done, at: (ms: number) => (now = ms) };
}

Deno.test("a client's first failure redraws it; another soon after disconnects it with one line", () => {
  const { o, done, at } = owner();
  at(1000);
  assert.equal(o.fault!(new Error("x"), "draw"), "redrawn from scratch");
  at(1000 + REPEAT_MS - 1);
  assert.equal(o.fault!(new RangeError("offset is out of bounds\nmore"), "draw"), "disconnected");
  assert.equal(o.fault!(new Error("late timer"), "draw"), "already disconnected");
  assert.deepEqual(done, [
    "reset",
    "drop: This client was disconnected after an internal error in its draw, twice " +
    "(offset is out of bounds; details in /data/crash.log); its sessions keep running: " +
    "`lazyshell attach`",
  ]);
});

Deno.test("failures far apart each only redraw the client", () => {
  const { o, done, at } = owner();
  for (let i = 0; i < 4; i++) {
    at(i * (REPEAT_MS + 1));
    assert.equal(o.fault!(new Error("rare"), "input"), "redrawn from scratch");
  }
  assert.deepEqual(done, ["reset", "reset", "reset", "reset"]);
});
