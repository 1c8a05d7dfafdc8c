/**
 * A usage limit where it is shown (docs/limits.md): the TUI list (marker and
 * countdown), `L` jumping through limited sessions, `lazyshell ls`, the
 * `ctl list --json` entry.
 */

import assert from "node:assert/strict";
import type { AgentStatus } from "../model/agent.ts";
import { initialTuiState, type TuiState } from "../model/tui.ts";
import { type SessionView, sessionView } from "../model/session.ts";
import { KeyDecoder, type UserInput } from "../tui/core/keys.ts";
import { resolveKeymap } from "../tui/core/keymap.ts";
import type { TuiEvent } from "../tui/core/events.ts";
import { update } from "../tui/core/update.ts";
import { sidebarLines } from "../tui/core/view/sidebar.ts";
import { sessionEntry } from "../control/entry.ts";
import { sessionList } from "../server/ls.ts";
import type { RuntimeState } from "../model/runtime.ts";

const { keymap } = resolveKeymap();
const NOW = Date.parse("2026-12-02T00:47:00Z");
const RESET = Date.parse("2026-12-02T03:00:00Z");

const limited: AgentStatus = {
  state: "error",
  kind: "limit",
  source: "screen",
  ruleId: "usage-limit",
  seq: 2,
  since: NOW,
  msg: "You've hit your 5-hour limit",
  resetsAt: RESET,
};
const failed: AgentStatus = { ...limited, kind: "rate_limit", resetsAt: null };

function row(id: string, more: Partial<SessionView> = {}): SessionView {
  return sessionView(id, { hasRules: true, agent: "claude", ...more });
}

function tui(rows: SessionView[]): TuiState {
  return {
    ...initialTuiState(120, 32, 0),
    sessions: rows,
    selected: rows[0]?.id ?? null,
    now: NOW,
  };
}

const key = (bytes: string): TuiEvent => ({
  type: "input",
  input: (() => {
    const d = new KeyDecoder();
    return [...d.feed(bytes), ...d.flush()][0] as UserInput;
  })(),
});

Deno.test("TUI list: a limited session shows ⏸ and its countdown", () => {
  const text = sidebarLines(tui([row("a", { agentStatus: limited })]), 60, 20).lines
    .map((l) => l.map((s) => s.text).join(""));
  assert.ok(text.some((l) => l.includes("⏸ limit · resets ")), text.join("\n"));
  // The countdown is to the reset, whatever the viewer's zone: 2h13m.
  assert.ok(text.some((l) => l.includes("(2h13m)")), text.join("\n"));
  assert.ok(text.some((l) => l.startsWith(" ⏸") || l.startsWith("▌⏸")), text.join("\n"));
});

Deno.test("L jumps through limited sessions only, and says so when there is none", () => {
  const s = tui([
    row("a"),
    row("b", { agentStatus: limited }),
    row("c", { agentStatus: failed }),
    row("d", { agentStatus: limited }),
  ]);
  const one = update(s, key("L"), keymap).state;
  assert.equal(one.selected, "b");
  const two = update(one, key("L"), keymap).state;
  assert.equal(two.selected, "d");
  assert.equal(update(two, key("L"), keymap).state.selected, "b");
  const none = update(tui([row("a"), row("c", { agentStatus: failed })]), key("L"), keymap);
  assert.equal(none.state.message?.text, "No session at a usage limit");
});

Deno.test("ctl list --json: kind limit and resetsAt in ISO 8601; ls: the countdown", () => {
  const view = row("session-1", { name: "cl2", agentStatus: limited });
  const entry = sessionEntry(view);
  assert.deepEqual([entry.state, entry.kind, entry.resetsAt], [
    "error",
    "limit",
    "2026-12-02T03:00:00.000Z",
  ]);
  assert.equal(sessionEntry(row("x", { agentStatus: failed })).resetsAt, null);
  const line = sessionList({ sessions: [view] } as unknown as RuntimeState, NOW);
  assert.match(line, /: error \(limit\) resets \d\d:\d\d \(2h13m\) /);
});

Deno.test("notification: `cl2: limit reached, resets 03:00` (in the machine's zone)", async () => {
  const { Notifier } = await import("../notify/notifier.ts");
  const written: string[] = [];
  const notifier = new Notifier({
    sink: (bytes) => written.push(bytes),
    now: () => NOW,
    focus: () => ({ selected: null, terminal: false }),
    log: () => {},
  });
  const cl2 = { id: "session-2", name: "cl2" };
  notifier.agentState(cl2, { ...limited, state: "working", kind: null, seq: 1 });
  assert.equal(notifier.agentState(cl2, limited), "sent");
  const { limitNotice } = await import("./limit_text.ts");
  const text = limitNotice("cl2", limited, NOW);
  assert.match(text, /^cl2: limit reached, resets (?:\w{3} \d+ )?\d\d:\d\d$/);
  assert.deepEqual(written, [`\x1b]9;${text}\x07\x1b]777;notify;lazyshell;${text}\x07`]);
  await notifier[Symbol.asyncDispose]();
});

Deno.test("the TUI clock runs while a running session waits at a limit (its countdown moves)", async () => {
  const { anythingLimited } = await import("./limit_text.ts");
  assert.equal(anythingLimited({ sessions: [row("a", { agentStatus: limited })] }), true);
  assert.equal(anythingLimited({ sessions: [row("a", { agentStatus: failed })] }), false);
  assert.equal(
    anythingLimited({ sessions: [row("a", { agentStatus: limited, status: "exited" })] }),
    false,
  );
});

Deno.test("TUI list: a summary line when several sessions share one agent's limit", () => {
  const later = { ...limited, resetsAt: RESET + 3_600_000 };
  const rows = [
    row("a", { agentStatus: limited, agent: "codex" }),
    row("b", { agentStatus: later, agent: "codex" }),
    row("c", { agentStatus: limited, agent: "claude" }),
  ];
  const text = sidebarLines(tui(rows), 60, 20).lines.map((l) => l.map((s) => s.text).join(""));
  const summaries = text.filter((l) => l.includes("at a usage limit"));
  assert.equal(summaries.length, 1, text.join("\n"));
  assert.match(summaries[0]!, /^ ⏸ codex ×2 at a usage limit · resets \d\d:\d\d \(2h13m\)$/);
});

Deno.test("U asks to resume the selected limited session; elsewhere it says why not", () => {
  const s = tui([row("a", { agentStatus: limited }), row("b", { agentStatus: failed })]);
  const u = update(s, key("U"), keymap);
  assert.deepEqual(u.effects, [{ type: "resume-limit", id: "a" }]);
  const other = update({ ...s, selected: "b" }, key("U"), keymap);
  assert.deepEqual(other.effects, []);
  assert.equal(other.state.message?.text, "Not at a usage limit");
});

Deno.test("C cancels the selected limited session's pending resume; elsewhere it says why not", () => {
  const s = tui([row("a", { agentStatus: limited }), row("b", { agentStatus: failed })]);
  assert.deepEqual(update(s, key("C"), keymap).effects, [{ type: "cancel-limit", id: "a" }]);
  const other = update({ ...s, selected: "b" }, key("C"), keymap);
  assert.deepEqual(other.effects, []);
  assert.equal(other.state.message?.text, "Not at a usage limit");
  // The help lists it beside U and L; the message line of a new limit names the keys.
  const help = keymap.bindings.filter((b) => ["C", "U", "L", "P"].includes(b.keys[0]!));
  assert.deepEqual(help.map((b) => b.action), [
    "next-limited",
    "resume-limit",
    "cancel-limit",
    "limit-policy",
  ]);
  const working = { ...limited, state: "working" as const, kind: null, seq: 1 };
  const before = { ...tui([row("a", { agentStatus: working }), row("b")]), selected: "b" };
  const after = update(before, {
    type: "sessions",
    sessions: [row("a", { agentStatus: limited }), row("b")],
  }, keymap);
  assert.match(
    after.state.message?.text ?? "",
    /limit reached.* · L jumps · U resume · C cancel · P policy$/,
  );
});

Deno.test("P: the policy of the session, or with g of its group; o a u d set it", () => {
  const s = tui([row("a", { name: "cl2", group: "night", agentStatus: limited }), row("b")]);
  const open = update(s, key("P"), keymap).state;
  assert.deepEqual(open.overlay, {
    type: "limit-policy",
    target: "a",
    name: "cl2",
    group: "night",
    scope: "session",
  });
  const auto = update(open, key("u"), keymap);
  assert.deepEqual(auto.effects, [{ type: "limit-policy", id: "a", group: null, policy: "auto" }]);
  assert.equal(auto.state.overlay, null);
  const group = update(open, key("g"), keymap).state;
  const ask = update(group, key("a"), keymap);
  assert.deepEqual(ask.effects, [{ type: "limit-policy", id: "a", group: "night", policy: "ask" }]);
  const cleared = update(open, key("d"), keymap);
  assert.deepEqual(cleared.effects, [{ type: "limit-policy", id: "a", group: null, policy: null }]);
  // No group: g does nothing; esc closes without a change.
  const lone = update({ ...s, selected: "b" }, key("P"), keymap).state;
  assert.equal(update(lone, key("g"), keymap).state.overlay?.type, "limit-policy");
  assert.deepEqual(update(lone, key("\x1b"), keymap).effects, []);
});
