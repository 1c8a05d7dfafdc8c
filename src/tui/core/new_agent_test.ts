import assert from "node:assert/strict";
import type { AgentChoice } from "../../model/agent.ts";
import { initialTuiState, type TuiState } from "../../model/tui.ts";
import { sessionView } from "../../model/session.ts";
import { view } from "./view/mod.ts";
import { keymap, keys, run } from "./test_util.ts";

const AGENTS: AgentChoice[] = [
  { id: "claude", name: "Claude Code", installed: true, version: "2.1.332" },
  { id: "codex", name: "Codex", installed: true, version: "0.171.0" },
  { id: "aider", name: "Aider", installed: false, version: null },
];

const base: TuiState = {
  ...initialTuiState(120, 32, 0),
  sessions: [sessionView("session-1")],
  selected: "session-1",
};

Deno.test("N asks for the form; it opens on the first installed agent, agents may come later", () => {
  assert.deepEqual(run(base, ...keys("N")).effects, [{ type: "new-agent-form" }]);
  const waiting = run(base, { type: "new-agent-form", folder: "/src/app", agents: null }).state;
  assert.equal(waiting.overlay?.type, "new-agent");
  assert.match(
    view(waiting, { keymap, screen: null, tabLines: null }).toText(),
    /looking for agents…/,
  );
  const found = run(waiting, { type: "agent-choices", agents: AGENTS }).state;
  assert.equal(found.overlay?.type === "new-agent" && found.overlay.agent, "claude");
});

Deno.test("the form: choose the agent, type a prompt, the name follows it, a worktree, enter launches", () => {
  let s = run(base, {
    type: "new-agent-form",
    folder: "/src/app",
    agents: AGENTS,
    branchPrefix: "agent/",
  }).state;
  s = run(s, ...keys("\x1b[B")).state; // down: the next agent
  s = run(s, ...keys("\t\tFix the login bug")).state; // two tabs: the prompt field
  const text = view(s, { keymap, screen: null, tabLines: null }).toText();
  assert.match(text, /▸ Codex +0\.171\.0/);
  assert.match(text, /Aider +not installed/);
  assert.match(text, /Name +fix-the-login-bug/, "named after the prompt");
  s = run(s, ...keys("\t\t ")).state; // the worktree field, space
  assert.match(
    view(s, { keymap, screen: null, tabLines: null }).toText(),
    /\[x\] a new one, on branch agent\/fix-the-login-bug/,
  );
  const done = run(s, ...keys("\r"));
  assert.deepEqual(done.effects, [{
    type: "launch-agent",
    agent: "codex",
    cwd: "/src/app",
    prompt: "Fix the login bug",
    name: "",
    worktree: true,
  }]);
  assert.equal(done.state.overlay, null);
  assert.equal(done.state.message?.text, "Starting Codex in a new worktree…");
});

Deno.test("a typed name wins; an agent that is not installed, or none yet, is refused with a message", () => {
  let s = run(base, { type: "new-agent-form", folder: "/src/app", agents: AGENTS }).state;
  s = run(s, ...keys("\t\t\tmy-task\r")).state;
  const named = run(
    run(base, { type: "new-agent-form", folder: "/x", agents: AGENTS }).state,
    ...keys("\t\t\tmine\r"),
  );
  assert.equal(named.effects[0]?.type === "launch-agent" && named.effects[0].name, "mine");
  const aider = run(
    run(base, { type: "new-agent-form", folder: "/x", agents: AGENTS }).state,
    ...keys("\x1b[B\x1b[B\r"),
  ).state;
  assert.deepEqual(aider.message, { text: "Aider is not installed", error: true });
  assert.equal(aider.overlay?.type, "new-agent", "the form stays open");
  const early = run(
    run(base, { type: "new-agent-form", folder: "/x", agents: null }).state,
    ...keys("\r"),
  );
  assert.deepEqual(early.effects, []);
  assert.equal(s.overlay, null);
});
