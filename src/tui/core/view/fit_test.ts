/** What must fit at 80×24: every key of the answer panel, the answer overlay and the quit prompt. */

import assert from "node:assert/strict";
import type { Prompt } from "../../../model/prompt.ts";
import { initialTuiState, type TuiState } from "../../../model/tui.ts";
import { sessionView } from "../../../model/session.ts";
import { Frame } from "../frame.ts";
import { resolveKeymap } from "../keymap.ts";
import { view } from "./mod.ts";

const { keymap } = resolveKeymap();

const prompt: Prompt = {
  question: "Do you want to proceed?",
  subject: "Bash: rm -rf build && npm run build",
  options: [
    { label: "Yes", keys: ["1"] },
    {
      label: "Yes, and don't ask again for npm run build commands in /home/user/projects/api",
      keys: ["2"],
    },
    { label: "No, and tell Claude what to do differently (esc)", keys: ["3"] },
  ],
  cancel: ["Esc"],
  approve: 1,
  deny: 3,
};

function blocked(cols: number, rows: number): TuiState {
  const row = sessionView("a", {
    hasRules: true,
    name: "api",
    agent: "claude",
    agentStatus: {
      state: "blocked",
      kind: "permission",
      source: "screen",
      ruleId: "x",
      seq: 1,
      since: 0,
      msg: null,
    },
    prompt,
  });
  return { ...initialTuiState(cols, rows, 0), sessions: [row], selected: "a" };
}

const lines = (s: TuiState, screen: Frame | null = null) =>
  view(s, { keymap, screen, tabLines: null }).toText().split("\n").map((l) => l.trimEnd());

Deno.test("at 80×24 the answer panel shows every option's keys and every hint key", () => {
  const text = lines(blocked(80, 24), new Frame(54, 22));
  const options = text.filter((l) => /│ {3}[1-3] /.test(l));
  assert.equal(options.length, 3, text.join("\n"));
  assert.match(options[0]!, /1 Yes {2}\[1\] {2}\(y\)$/);
  assert.match(options[1]!, /2 Yes, and don't ask again.*… {2}\[2\]$/, "the label is cut, not [2]");
  assert.match(options[2]!, /\[3\] {2}\(n\)$/);
  assert.ok(text.some((l) => /│ o answer · I inbox · enter type/.test(l)), text.join("\n"));
});

Deno.test("at 80×24 the answer overlay shows every option's keys", () => {
  const s: TuiState = { ...blocked(80, 24), overlay: { type: "answer", target: "a", prompt } };
  const text = lines(s);
  assert.ok(text.some((l) => /2 Yes, and don't ask again.*… {2}\[2\]│$/.test(l)), text.join("\n"));
  assert.ok(text.some((l) => /\[3\] {2}\(n\) +│$/.test(l)));
});

Deno.test("at 80 columns the quit prompt is whole", () => {
  for (const running of [1, 3, 12, 99]) {
    const s: TuiState = { ...blocked(80, 24), overlay: { type: "confirm-quit", running } };
    const bar = lines(s).at(-1)!;
    assert.match(
      bar,
      /^\d+ sessions? still running: y end (it|them) and quit · d detach \(keep (it|them)\) · n cancel$/,
      bar,
    );
  }
});

Deno.test("the restore box keeps the pane's text off its edges: a blank cell all around", () => {
  const items = [
    { name: "bash", group: null, how: "shell in /work/wt/tui", picked: true },
    { name: "bash-2", group: null, how: "shell in /work/wt/tui", picked: true },
  ];
  const s: TuiState = {
    ...blocked(80, 24),
    sessions: [sessionView("a", { hasRules: false, name: "bash" })],
    overlay: { type: "restore", items, index: 0, problem: null },
  };
  const screen = new Frame(57, 22);
  for (let y = 0; y < 22; y++) screen.text(0, y, "界X".repeat(30));
  const f = view(s, { keymap, screen, tabLines: null });
  const at = (x: number, y: number) => f.chars[f.index(x, y)];
  const cells = (y: number) => Array.from({ length: f.cols }, (_, x) => at(x, y));
  const top = Array.from({ length: f.rows }, (_, y) => y).find((y) => cells(y).includes("╭"))!;
  const left = cells(top).indexOf("╭");
  const right = cells(top).indexOf("╮");
  const bottom = Array.from({ length: f.rows }, (_, y) => y).find((y) => at(left, y) === "╰")!;
  assert.ok(left > 0 && right > left && bottom > top, f.toText());
  for (let y = top - 1; y <= bottom + 1; y++) {
    for (const x of [left - 1, right + 1]) {
      assert.equal(at(x, y), " ", `(${x}, ${y}) beside the box:\n${f.toText()}`);
    }
  }
  for (let x = left - 1; x <= right + 1; x++) {
    assert.equal(at(x, top - 1), " ", `(${x}, ${top - 1}) above the box`);
    assert.equal(at(x, bottom + 1), " ", `(${x}, ${bottom + 1}) below the box`);
  }
});

Deno.test("at 80 columns the worktree question keeps its keys whole; a long name is cut", () => {
  const overlay = {
    type: "worktree-choice" as const,
    target: "a",
    name: "fix-the-login-redirect-after-the-oauth-callback",
    branch: "agent/fix-the-login-redirect-after-the-oauth-callback",
    running: true,
  };
  const bar = lines({ ...blocked(80, 24), overlay }).at(-1)!;
  assert.match(
    bar,
    /^End fix-the-l…; its worktree: k keep · w remove · b remove \+ branch · esc cancel$/,
    bar,
  );
});

Deno.test("at 80 columns the resume policy line (P) keeps every key, its group's too", () => {
  const overlay = {
    type: "limit-policy" as const,
    target: "a",
    name: "claude-fix-login",
    group: "night-shift",
    scope: "session" as const,
  };
  const bar = lines({ ...blocked(80, 24), overlay }).at(-1)!;
  assert.match(
    bar,
    /^At limits, cl\S*…: o off · a ask · u auto · d default · g group night-shift · esc$/,
    bar,
  );
  const group = lines({ ...blocked(80, 24), overlay: { ...overlay, scope: "group" as const } })
    .at(-1)!;
  assert.match(group, /^At limits, group \S*: o off .* · s this session · esc$/, group);
});
