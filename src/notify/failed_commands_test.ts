import assert from "node:assert/strict";
import { FailedCommands } from "./failed_commands.ts";

Deno.test("FailedCommands reports a non-zero D that follows a C", () => {
  const f = new FailedCommands();
  f.commandStarted("s1", false);
  assert.equal(f.commandEnded("s1", 2, false), 2);
  // The same status re-reported at an empty prompt (no C) is nothing.
  assert.equal(f.commandEnded("s1", 2, false), null);
});

Deno.test("FailedCommands ignores success and unknown exit codes", () => {
  const f = new FailedCommands();
  f.commandStarted("s1", false);
  assert.equal(f.commandEnded("s1", 0, false), null);
  f.commandStarted("s1", false);
  assert.equal(f.commandEnded("s1", null, false), null);
});

Deno.test("FailedCommands never reports a command during which an agent was seen", () => {
  const f = new FailedCommands();
  f.commandStarted("s1", true);
  assert.equal(f.commandEnded("s1", 1, false), null);
  f.commandStarted("s1", false);
  f.agentSeen("s1");
  assert.equal(f.commandEnded("s1", 130, false), null);
  f.commandStarted("s1", false);
  assert.equal(f.commandEnded("s1", 1, true), null);
  // Another session is unaffected.
  f.commandStarted("s2", false);
  f.agentSeen("s1");
  assert.equal(f.commandEnded("s2", 1, false), 1);
});
