import assert from "node:assert/strict";
import type { AgentStatus } from "../model/agent.ts";
import { isLimit, limitNotice, limitText } from "./limit_text.ts";

const base: AgentStatus = {
  state: "error",
  kind: "limit",
  source: "screen",
  ruleId: "usage-limit",
  seq: 3,
  since: 0,
  msg: "You've hit your 5-hour limit",
};
const now = Date.parse("2026-12-02T00:47:00Z");

Deno.test("limit text: the list's countdown, and a limit with no time", () => {
  const at = Date.parse("2026-12-02T03:00:00Z");
  assert.equal(limitText({ ...base, resetsAt: at }, now, "UTC"), "limit · resets 03:00 (2h13m)");
  assert.equal(limitText(base, now, "UTC"), "limit · reset time unknown");
  assert.equal(
    limitText({ ...base, resetsAt: at }, at + 5000, "UTC"),
    "limit · resets 03:00 (now)",
  );
});

Deno.test("limit notice: name, and the reset's time of day (a date when not today)", () => {
  const at = Date.parse("2026-12-02T03:00:00Z");
  assert.equal(
    limitNotice("cl2", { ...base, resetsAt: at }, now, "UTC"),
    "cl2: limit reached, resets 03:00",
  );
  const weekly = Date.parse("2026-12-05T10:00:00Z");
  assert.equal(
    limitNotice("cl2", { ...base, resetsAt: weekly }, now, "UTC"),
    "cl2: limit reached, resets Dec 5 10:00",
  );
  assert.equal(limitNotice("cl2", base, now, "UTC"), "cl2: limit reached");
});

Deno.test("isLimit: error with kind limit only", () => {
  assert.equal(isLimit(base), true);
  assert.equal(isLimit({ ...base, kind: "rate_limit" }), false);
  assert.equal(isLimit({ ...base, state: "blocked" }), false);
  assert.equal(isLimit(null), false);
});
