import assert from "node:assert/strict";
import { selfTest } from "./self_check.ts";

// The real checks run in tests/package_test.ts (the npm package's launcher) and in
// .ci/run (deno run, the installed commands, the compiled binary).
Deno.test("selfTest: one line per check, a failure says why and makes the exit code 1", async () => {
  const lines: string[] = [];
  const code = await selfTest((line) => lines.push(line), [
    { name: "first", run: () => Promise.resolve("fine") },
    { name: "second", run: () => Promise.reject(new Error("Broken: here")) },
  ]);
  assert.equal(code, 1);
  assert.match(lines[0]!, /^ok {3}first: fine \(\d+ ms\)$/);
  assert.deepEqual(lines.slice(1), [
    "FAIL second: Broken: here",
    "Self-test failed: 1 of 2 checks",
  ]);
});
