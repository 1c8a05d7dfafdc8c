import assert from "node:assert/strict";
import type { AgentStatus } from "../model/agent.ts";
import {
  EMPTY_STATE,
  latestFocus,
  type RuntimeChange,
  type RuntimeState,
} from "../model/runtime.ts";
import { type EngineEvent, reduceRuntime, type SessionFacts } from "./state.ts";

function facts(id: string, more: Partial<SessionFacts> = {}): SessionFacts {
  return {
    id,
    name: id,
    group: null,
    command: "bash",
    cwd: "/tmp",
    worktree: null,
    pid: 100,
    cols: 80,
    rows: 24,
    status: "running",
    exitCode: null,
    signal: null,
    createdAt: 1,
    origin: null,
    ...more,
  };
}

function status(state: AgentStatus["state"], seq: number, since: number): AgentStatus {
  return { state, kind: null, source: "screen", ruleId: "r", seq, since, msg: null };
}

function run(events: EngineEvent[], start: RuntimeState = EMPTY_STATE) {
  let state = start;
  const changes: RuntimeChange[] = [];
  for (const e of events) {
    const r = reduceRuntime(state, e);
    state = r.state;
    if (r.change) changes.push(r.change);
  }
  return { state, changes };
}

Deno.test("reduceRuntime() adds, updates and removes sessions, one change per real change", () => {
  const { state, changes } = run([
    { type: "session-added", session: facts("session-1") },
    { type: "session-added", session: facts("session-2") },
    { type: "session-changed", id: "session-1", name: "api", group: "backend" },
    { type: "session-changed", id: "session-1", name: "api", group: "backend" },
    { type: "session-removed", id: "session-2" },
    { type: "session-removed", id: "session-9" },
  ]);
  assert.deepEqual(changes.map((c) => [c.type, c.seq]), [
    ["added", 1],
    ["added", 2],
    ["updated", 3],
    ["removed", 4],
  ]);
  assert.equal(state.seq, 4);
  assert.deepEqual(state.sessions.map((s) => [s.id, s.name, s.group]), [
    ["session-1", "api", "backend"],
  ]);
});

Deno.test("reduceRuntime() keeps an unchanged session's view object (readers compare by reference)", () => {
  const { state } = run([
    { type: "session-added", session: facts("session-1") },
    { type: "session-added", session: facts("session-2") },
  ]);
  const next = reduceRuntime(state, { type: "capable", id: "session-2" }).state;
  assert.equal(next.sessions[0], state.sessions[0]);
  assert.notEqual(next.sessions[1], state.sessions[1]);
  assert.equal(next.sessions[1]!.capable, true);
  assert.equal(reduceRuntime(next, { type: "capable", id: "session-2" }).change, null);
});

Deno.test("reduceRuntime() counts a turn from working to done, an approval inside it included", () => {
  const { state } = run([
    { type: "session-added", session: facts("session-1") },
    { type: "state", id: "session-1", status: status("working", 1, 1000), at: 1000 },
    { type: "state", id: "session-1", status: status("blocked", 2, 4000), at: 4000 },
    { type: "state", id: "session-1", status: status("working", 3, 5000), at: 5000 },
    { type: "state", id: "session-1", status: status("done", 4, 7000), at: 7000 },
  ]);
  assert.deepEqual(state.sessions[0]!.turn, { startedAt: null, lastMs: 6000, count: 1 });
});

Deno.test("reduceRuntime() ends a running turn at exit", () => {
  const { state } = run([
    { type: "session-added", session: facts("session-1") },
    { type: "state", id: "session-1", status: status("working", 1, 1000), at: 1000 },
    { type: "state", id: "session-1", status: status("idle", 2, 2000), at: 2000 },
    { type: "state", id: "session-1", status: status("working", 3, 5000), at: 5000 },
    { type: "state", id: "session-1", status: status("working", 3, 5000), at: 5100 },
    { type: "session-exited", id: "session-1", exitCode: 0, signal: null, at: 9000 },
  ]);
  const s = state.sessions[0]!;
  assert.deepEqual(s.turn, { startedAt: null, lastMs: 4000, count: 2 });
  assert.deepEqual([s.status, s.exitCode, s.agentStatus?.seq], ["exited", 0, 3]);
});

Deno.test("reduceRuntime() moves outputAt at most once per second", () => {
  const { changes, state } = run([
    { type: "session-added", session: facts("session-1") },
    { type: "output", id: "session-1", at: 10_000 },
    { type: "output", id: "session-1", at: 10_400 },
    { type: "output", id: "session-1", at: 10_900 },
    { type: "output", id: "session-1", at: 11_000 },
  ]);
  assert.equal(changes.length, 3);
  assert.equal(state.sessions[0]!.outputAt, 11_000);
});

Deno.test("reduceRuntime() records agent, stats line, live watcher and catalog problems", () => {
  const { state, changes } = run([
    { type: "session-added", session: facts("session-1") },
    { type: "agent", id: "session-1", agent: "claude", hasRules: true },
    { type: "stats", id: "session-1", line: "12k tokens" },
    { type: "watcher", id: "session-1", pattern: "ERR" },
    { type: "problems", problems: ["bad.yml:3: state: Invalid option"] },
    { type: "problems", problems: ["bad.yml:3: state: Invalid option"] },
  ]);
  const s = state.sessions[0]!;
  assert.deepEqual([s.agent, s.hasRules, s.stats, s.watcher], [
    "claude",
    true,
    "12k tokens",
    "ERR",
  ]);
  assert.deepEqual(state.problems, ["bad.yml:3: state: Invalid option"]);
  assert.equal(changes.at(-1)?.type, "problems");
  assert.equal(changes.length, 5);
});

Deno.test("a RuntimeState is plain data: it survives JSON unchanged", () => {
  const { state } = run([
    { type: "session-added", session: facts("session-1", { group: "g" }) },
    { type: "state", id: "session-1", status: status("blocked", 1, 5), at: 5 },
  ]);
  assert.deepEqual(JSON.parse(JSON.stringify(state)), state);
});

Deno.test("reduceRuntime() replaces a respawned session in place, keeping its live watcher", () => {
  const { state } = run([
    { type: "session-added", session: facts("session-1") },
    { type: "session-added", session: facts("session-2") },
    { type: "watcher", id: "session-1", pattern: "ERR" },
    { type: "agent", id: "session-1", agent: "claude", hasRules: true },
    { type: "session-exited", id: "session-1", exitCode: 1, signal: null, at: 5 },
    { type: "session-replaced", session: facts("session-1", { pid: 222 }) },
  ]);
  const s = state.sessions[0]!;
  assert.deepEqual([s.id, s.pid, s.status, s.agent, s.watcher], [
    "session-1",
    222,
    "running",
    null,
    "ERR",
  ]);
  assert.deepEqual(state.sessions.map((v) => v.id), ["session-1", "session-2"]);
});

Deno.test("reduceRuntime() keeps the blocked session's prompt: one change per new reading", () => {
  const prompt = {
    question: "Do you want to proceed?",
    subject: "make test",
    options: [{ label: "Yes", keys: ["1"] }, { label: "No", keys: ["2"] }],
    cancel: ["Esc"],
    approve: 1,
    deny: 2,
  };
  const { state, changes } = run([
    { type: "session-added", session: facts("s1") },
    { type: "prompt", id: "s1", prompt },
    { type: "prompt", id: "s1", prompt }, // the same reading: no change
    { type: "prompt", id: "s1", prompt: null },
  ]);
  assert.deepEqual(changes.map((c) => c.type === "updated" ? c.session.prompt : c.type), [
    "added",
    prompt,
    null,
  ]);
  assert.equal(state.sessions[0]!.prompt, null);
});

Deno.test("reduceRuntime() keeps a hook's conversation id as a fact of the session, for its agent", () => {
  const c = (id: string, source = "hook Stop: session_id") => ({
    type: "conversation" as const,
    id: "s1",
    conversation: { id, source, cwd: "/w", transcript: null },
  });
  const { state, changes } = run([
    { type: "session-added", session: facts("s1") },
    c("early"),
    { type: "agent", id: "s1", agent: "claude", hasRules: true },
    c("abc", "hook UserPromptSubmit: session_id"),
    c("abc", "hook Stop: session_id"),
    { type: "agent", id: "s1", agent: null, hasRules: false },
  ]);
  // An id seen before the agent was identified goes to the agent identified next.
  assert.equal(changes[1]!.type === "updated" && changes[1]!.session.conversation?.agent, null);
  assert.equal(changes[2]!.type === "updated" && changes[2]!.session.conversation?.agent, "claude");
  // The same id again (every hook repeats it) is no change; the agent leaving keeps the fact.
  assert.equal(changes.length, 5);
  assert.deepEqual(state.sessions[0]!.conversation, {
    agent: "claude",
    id: "abc",
    source: "hook UserPromptSubmit: session_id",
    cwd: "/w",
    transcript: null,
  });
});

Deno.test("focus: each client once, the most recently active last; a client that left is gone", () => {
  const { state, changes } = run([
    { type: "focus", focus: { client: "a", selected: "session-1", terminal: false } },
    { type: "focus", focus: { client: "b", selected: "session-2", terminal: true } },
    { type: "focus", focus: { client: "b", selected: "session-2", terminal: true } },
    { type: "focus", focus: { client: "a", selected: "session-1", terminal: false } },
    { type: "client-left", client: "b" },
    { type: "client-left", client: "b" },
  ]);
  assert.deepEqual(changes.map((c) => c.type), ["focus", "focus", "focus", "focus"]);
  assert.deepEqual(state.focus, [{ client: "a", selected: "session-1", terminal: false }]);
  assert.equal(latestFocus(state).selected, "session-1");
  assert.equal(latestFocus(EMPTY_STATE).selected, null);
});

Deno.test("watchers: the list is state; the same list again is no change", () => {
  const live = { session: "session-1", pattern: "ERROR", source: "live", notify: true } as const;
  const { state, changes } = run([
    { type: "watchers", watchers: [{ ...live, matches: 0 }] },
    { type: "watchers", watchers: [{ ...live, matches: 0 }] },
    { type: "watchers", watchers: [{ ...live, matches: 2 }] },
  ]);
  assert.deepEqual(changes.map((c) => [c.type, c.seq]), [["watchers", 1], ["watchers", 2]]);
  assert.equal(state.watchers[0]?.matches, 2);
});
