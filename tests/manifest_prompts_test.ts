/**
 * The built-in prompt readers on prompts the fixtures do not hold: file
 * edits, plan approval, a moved selection, question tools, opencode's
 * second "Always allow" stage — screens as the agents draw them
 * (tests/manifest_rules_test.ts, fixtures/captures/README.md). Question,
 * options with their keys, and which one approves must read exactly.
 */

import assert from "node:assert/strict";
import { loadCatalogSync } from "../src/runtime/catalog.ts";
import { readPrompt } from "../src/detect/prompt.ts";
import { evaluate } from "../src/detect/rules.ts";
import type { Prompt } from "../src/model/prompt.ts";
import {
  CLAUDE_ASK,
  CLAUDE_EDIT,
  CLAUDE_MOVED,
  CLAUDE_PLAN,
  CODEX_EDIT,
  OPENCODE_QUESTION,
} from "./testdata/agent_screens.ts";

const catalog = loadCatalogSync({ userDir: null });

function view(text: string, styles: Record<number, number[]> = {}) {
  const lines = text.split("\n");
  return {
    cols: 120,
    rows: lines.length,
    title: "",
    line: (y: number) => lines[y] ?? "",
    styles: (y: number) => styles[y] ?? [],
  };
}

const digits = (...labels: string[]) => labels.map((label, i) => ({ label, keys: [`${i + 1}`] }));

const OPENCODE_ALWAYS = `  ┃
  ┃  △ Always allow
  ┃
  ┃  This will allow the following patterns until OpenCode is restarted
  ┃
  ┃  - touch *
  ┃
  ┃
  ┃   Confirm   Cancel                                                                      ⇆ select  enter confirm
  ┃`;
/** The row's styles as opencode draws them: the selected option's box highlighted. */
function lit(row: string, label: string): number[] {
  const at = row.indexOf(label);
  return [...row].map((_, i) => (i >= at - 1 && i <= at + label.length ? 9 : 1));
}

const cases: [string, string, string, Record<number, number[]>, Prompt][] = [
  [
    "claude",
    "file edit (no footer)",
    CLAUDE_EDIT,
    {},
    {
      question: "Do you want to make this edit to app.py?",
      subject: "app.py",
      options: digits(
        "Yes",
        "Yes, allow all edits during this session",
        "No, and tell Claude what to do differently",
      ),
      cancel: null,
      approve: 1,
      deny: 3,
    },
  ],
  [
    "claude",
    "plan approval",
    CLAUDE_PLAN,
    {},
    {
      question: "Would you like to proceed?",
      subject: null,
      options: digits(
        "Yes, and auto-accept edits",
        "Yes, and manually approve edits",
        "No, keep planning",
      ),
      cancel: null,
      approve: 1,
      deny: 3,
    },
  ],
  [
    "claude",
    "the selection moved to option 2: digits still choose",
    CLAUDE_MOVED,
    {},
    {
      question: "Do you want to proceed?",
      subject: null,
      options: digits("Yes", "Yes, and always allow access to /tmp/x from this project", "No"),
      cancel: null,
      approve: 1,
      deny: 3,
    },
  ],
  [
    "claude",
    "AskUserQuestion",
    CLAUDE_ASK,
    {},
    {
      question: "Which test framework should I use?",
      subject: null,
      options: digits("pytest (Recommended)", "unittest", "Type something.", "Chat about this"),
      cancel: ["Esc"],
      approve: null,
      deny: null,
    },
  ],
  [
    "codex",
    "file edit approval",
    CODEX_EDIT,
    {},
    {
      question: "Would you like to make the following edits?",
      subject: null,
      options: [
        { label: "Yes, proceed", keys: ["y"] },
        { label: "No, and tell Codex what to do differently", keys: ["Esc"] },
      ],
      cancel: ["Esc"],
      approve: 1,
      deny: 2,
    },
  ],
  [
    "opencode",
    "its question tool",
    OPENCODE_QUESTION,
    {},
    {
      question: "Which test framework should I use?",
      subject: null,
      options: digits("pytest (Recommended)", "unittest", "Type your own answer"),
      cancel: ["Esc"],
      approve: null,
      deny: null,
    },
  ],
  [
    "opencode",
    "Always allow, Confirm selected",
    OPENCODE_ALWAYS,
    { 8: lit(OPENCODE_ALWAYS.split("\n")[8]!, "Confirm") },
    {
      // The question is its text, not the dialog's title (opencode-always @151099).
      question: "This will allow the following patterns until OpenCode is restarted",
      subject: "touch *",
      options: [
        { label: "Confirm", keys: ["Enter"] },
        { label: "Cancel", keys: ["Right", "Enter"] },
      ],
      cancel: null,
      approve: 1,
      deny: null,
    },
  ],
];

for (const [agent, what, screen, styles, want] of cases) {
  Deno.test(`${agent}.yml prompt: ${what}`, () => {
    const m = catalog.get(agent);
    assert.ok(m, agent);
    assert.deepEqual(readPrompt(m.prompts, view(screen, styles)), want);
  });
}

Deno.test("opencode.yml: the Always allow stage is blocked, and unreadable without its colours", () => {
  const m = catalog.get("opencode")!;
  const r = evaluate(m, view(OPENCODE_ALWAYS));
  assert.equal(`${r.state}/${r.kind}/${r.ruleId}`, "blocked/permission/always-allow");
  assert.equal(readPrompt(m.prompts, view(OPENCODE_ALWAYS)), null);
});
