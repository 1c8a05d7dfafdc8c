import assert from "node:assert/strict";
import { UserError } from "../errors.ts";
import { armFaults, Faults, faults, InjectedFault, parseFaults } from "./fault_injection.ts";

Deno.test("LAZYSHELL_FAULT: each item throws at its point for its target, COUNT times", () => {
  const f = new Faults(parseFaults("draw:client-2:2, verb:*"));
  f.hit("draw", "client-1"); // another owner
  f.hit("listener", "client-2"); // another point
  assert.throws(() => f.hit("draw", "client-2"), InjectedFault);
  assert.throws(
    () => f.hit("draw", "client-2"),
    /draw in client-2 \(LAZYSHELL_FAULT, tests only\)/,
  );
  f.hit("draw", "client-2"); // spent
  for (let i = 0; i < 5; i++) assert.throws(() => f.hit("verb", `verb-${i}`), InjectedFault);
});

Deno.test("LAZYSHELL_FAULT: unset arms nothing; a bad item is one line naming the grammar", () => {
  armFaults(undefined);
  assert.equal(faults, null);
  armFaults("");
  assert.equal(faults, null);
  for (const bad of ["draw", "paint:client-1", "draw:client-1:0", "draw:client-1:x", "a:b:1:2"]) {
    assert.throws(
      () => parseFaults(bad),
      (e: unknown) =>
        e instanceof UserError && /POINT:TARGET\[:COUNT\]/.test(e.message) &&
        !e.message.includes("\n"),
      bad,
    );
  }
  armFaults("timer:session-1:1");
  try {
    assert.throws(() => faults!.hit("timer", "session-1"), InjectedFault);
  } finally {
    armFaults(undefined);
  }
});
