import assert from "node:assert/strict";
import type { AgentStatus } from "../../../model/agent.ts";
import { sessionView } from "../../../model/session.ts";
import { markerOf } from "./marker.ts";
import { theme } from "./theme.ts";

const status = (state: AgentStatus["state"]): AgentStatus => ({
  state,
  kind: null,
  source: "declared",
  ruleId: "osc7501",
  seq: 1,
  since: 0,
  msg: null,
});

Deno.test("a done session says done, as ctl list does: bright until seen, dim after", () => {
  const row = sessionView("a", { hasRules: true, agent: "claude", agentStatus: status("done") });
  const marks = { activity: {}, spin: 0, reduceMotion: false };
  const unseen = markerOf(row, { ...marks, unseenDone: { a: true } });
  assert.deepEqual([unseen.text, unseen.label, unseen.style], ["✓", "done", theme.done]);
  const seen = markerOf(row, { ...marks, unseenDone: {} });
  assert.deepEqual([seen.text, seen.label, seen.style], ["✓", "done", theme.dim]);
  const idle = markerOf({ ...row, agentStatus: status("idle") }, { ...marks, unseenDone: {} });
  assert.deepEqual([idle.text, idle.label], ["·", "idle"]);
});
