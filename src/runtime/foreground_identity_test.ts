import assert from "node:assert/strict";
import type { ProcessInfo } from "../model/snapshot.ts";
import type { AgentIdentity } from "../session/identity.ts";
import { ForegroundIdentifier } from "./foreground_identity.ts";

const agents: AgentIdentity[] = [{ id: "demo", processes: ["demo"], scripts: [], packages: [] }];
const proc = (argv: string[]): ProcessInfo => ({
  pid: 42,
  startTime: 1,
  comm: argv[0]!,
  argv,
  exe: null,
});

Deno.test("the foreground is identified, a launcher told apart", () => {
  const who = new ForegroundIdentifier();
  assert.deepEqual(pick(who.of(proc(["demo", "--flag"]), agents)), ["demo", false]);
  assert.deepEqual(pick(who.of(proc(["env", "demo"]), agents)), [null, true]);
  assert.deepEqual(pick(who.of(proc(["vim"]), agents)), [null, false]);
});

Deno.test("the same foreground object and catalog keep the last answer; a new one of either asks again", () => {
  const who = new ForegroundIdentifier();
  const fg = proc(["demo"]);
  const first = who.of(fg, agents);
  assert.equal(who.of(fg, agents), first, "the same process: the answer is not computed again");
  // A reload replaces the catalog's identities: the same process may now be another agent.
  const renamed: AgentIdentity[] = [{ ...agents[0]!, id: "renamed" }];
  assert.equal(who.of(fg, renamed).agent, "renamed");
  // The process table answers with a new object once the foreground changed.
  const again = who.of({ ...fg }, renamed);
  assert.notEqual(again, first);
  assert.equal(again.agent, "renamed");
});

const pick = (w: { agent: string | null; launcher: boolean }) => [w.agent, w.launcher];
