import assert from "node:assert/strict";
import { ManifestError } from "../errors.ts";
import type { AgentStatus } from "../model/agent.ts";
import { snapshotView } from "../model/snapshot.ts";
import { parseManifest } from "./manifest.ts";
import type { ScreenView } from "../model/snapshot.ts";
import { promptFor, readInput, readPrompt, samePrompt } from "./prompt.ts";

const MANIFEST = `id: demo
prompts:
  - id: row
    any: ['enter confirm']
    question: ['△ (?<text>.+)']
    row: '^ {2}(?<items>\\S.*?)\\s{4,}enter confirm'
    split: '\\s{3,}'
    selection: highlight
    choose: arrows
    approve: '^Allow'
    deny: '^Reject'
  - id: menu
    region: { bottom: 12 }
    all: ['^\\s*[>❯]?\\s*1\\.']
    question: ['^\\s*(?<text>\\S.*\\?)$']
    subject: ['^\\$ (?<text>.+)$']
    option: '^\\s*(?<selected>❯)?\\s*(?<number>\\d+)\\.\\s+(?<label>\\S.*?)(?:\\s+\\((?<key>\\w+)\\))?$'
    cancel: ['Esc to cancel']
    approve: '^Yes'
input:
  region: { bottom: 4 }
  pattern: '^> (?<text>.*)\\n-{3,}$'
`;
const m = parseManifest(MANIFEST, "demo.yml");

function view(lines: string[], styles?: Record<number, number[]>): ScreenView {
  const v = snapshotView({
    cols: 80,
    rows: lines.length,
    lines,
    title: "",
    altScreen: false,
    cursor: { x: 0, y: 0 },
    foreground: null,
  });
  return styles ? { ...v, styles: (y: number) => styles[y] ?? [] } : v;
}

Deno.test("prompt: question above the menu, subject, keys, cancel, approve", () => {
  const p = readPrompt(
    m.prompts,
    view([
      "Would you like me to add a test?", // an old prose question: not this prompt's
      "$ rm -rf build",
      "Do you want to proceed?",
      "❯ 1. Yes (y)",
      "     Runs it once. Is that fine?", // a description ending in "?" is passed over
      "  2. No",
      "Esc to cancel",
    ]),
  );
  assert.deepEqual(p, {
    question: "Do you want to proceed?",
    subject: "rm -rf build",
    options: [{ label: "Yes", keys: ["y"] }, { label: "No", keys: ["2"] }],
    cancel: ["Esc"],
    approve: 1,
    deny: null,
  });
});

Deno.test("prompt: an uncertain reading is null", () => {
  // Numbers that do not run 1..n: a half-drawn or scrolled menu.
  assert.equal(readPrompt(m.prompts, view(["Go?", "  1. Yes", "  3. No"])), null);
  // An unknown key hint.
  assert.equal(readPrompt(m.prompts, view(["Go?", "  1. Yes (ctrl)"])), null);
  // No question above the options.
  assert.equal(readPrompt(m.prompts, view(["  1. Yes", "  2. No"])), null);
  // Arrows with no visible selection (no styles, or two options both highlighted differently).
  const row = ["△ Permission required", "  Allow   Reject       enter confirm"];
  assert.equal(readPrompt(m.prompts, view(row)), null);
  assert.equal(readPrompt(m.prompts, view(row, { 1: [0, 0, 5, 5, 5, 5, 5, 0, 0, 0, 7, 7] })), null);
});

Deno.test("prompt: a row of options chosen with arrows from the highlighted one", () => {
  const line = "  Once   Allow   Reject       enter confirm";
  const style = [...line].map((_, i) => (i >= 9 && i < 14 ? 9 : 1)); // "Allow" highlighted
  const p = readPrompt(m.prompts, view(["△ Permission required", line], { 1: style }));
  assert.deepEqual(p?.options, [
    { label: "Once", keys: ["Left", "Enter"] },
    { label: "Allow", keys: ["Enter"] },
    { label: "Reject", keys: ["Right", "Enter"] },
  ]);
  assert.deepEqual([p?.approve, p?.deny, p?.cancel], [2, 3, null]);
});

Deno.test("prompt: of two highlighted options, the one unlike the row's own text", () => {
  const line = "  Confirm   Cancel       enter confirm";
  const lit = (from: number, to: number) => [...line].map((_, i) => (i >= from && i < to ? 9 : 1));
  const read = (style: number[]) =>
    readPrompt(m.prompts, view(["△ Always allow", line], { 1: style }))?.options.map((o) => o.keys);
  assert.deepEqual(read(lit(2, 9)), [["Enter"], ["Right", "Enter"]]);
  assert.deepEqual(read(lit(12, 18)), [["Left", "Enter"], ["Enter"]]);
  // Both unlike the row (or alike): no selection can be told, no reading.
  assert.equal(read([...line].map((_, i) => (i < 9 ? 9 : i < 18 ? 7 : 1))), undefined);
});

/** Claude Code's multi-select question (claude-ask-multi-osc7501 @11269), in short. */
const CHECKS = parseManifest(
  `id: checks
prompts:
  - id: menu
    any: ['^\\s*❯\\s*\\d+\\.\\s', '^\\s*❯\\s+Submit$']
    question: ['^(?<text>\\S.*\\?)$']
    option:
      - '^\\s*(?:(?<selected>❯)\\s*)?(?<number>\\d+)\\.\\s+(?:\\[[ ✔]\\]\\s+)?(?<label>\\S.*?)$'
      - '^\\s*(?:(?<selected>❯)\\s*)?(?<label>Submit)$'
`,
  "checks.yml",
);

Deno.test("prompt: option patterns in turn; a row with no number among numbered ones takes the arrows", () => {
  const screen = (cursor: number) =>
    view([
      "Which cases should the test cover?",
      `${cursor === 1 ? "❯" : " "} 1. [✔] Empty input`,
      "       A list with no items", // a description: no option
      `${cursor === 2 ? "❯" : " "} 2. [ ] Long input`,
      `${cursor === 3 ? "❯" : " "}    Submit`,
      "  3. Chat about this",
    ]);
  assert.deepEqual(readPrompt(CHECKS.prompts, screen(1))?.options, [
    { label: "Empty input", keys: ["1"] },
    { label: "Long input", keys: ["2"] },
    { label: "Submit", keys: ["Down", "Down", "Enter"] },
    { label: "Chat about this", keys: ["3"] },
  ]);
  assert.deepEqual(readPrompt(CHECKS.prompts, screen(3))?.options[2], {
    label: "Submit",
    keys: ["Enter"],
  });
  // Numbers around the unnumbered row must still run 1..n.
  const gap = view(["Which?", "❯ 1. [ ] A", "     Submit", "  3. B"]);
  assert.equal(readPrompt(CHECKS.prompts, gap), null);
});

Deno.test("prompt: a label the terminal wrapped continues below it; a description does not", () => {
  const narrow = (lines: string[]) => ({ ...view(lines), cols: 40 });
  const p = readPrompt(
    m.prompts,
    narrow([
      "Do you want to proceed?",
      "❯ 1. Yes",
      "  2. Yes, and always allow access to",
      "     /home/me/a/long/path from this",
      "     project",
      "  3. No",
      "     Tell the agent what to do instead", // "Tell" fits after "No": a description
      "Esc to cancel",
    ]),
  );
  assert.deepEqual(p?.options.map((o) => o.label), [
    "Yes",
    "Yes, and always allow access to /home/me/a/long/path from this project",
    "No",
  ]);
});

Deno.test("prompt: only while blocked; a declared msg is the subject", () => {
  const lines = ["$ make", "Run it?", "❯ 1. Yes", "  2. No"];
  const status = (state: AgentStatus["state"], source: AgentStatus["source"]): AgentStatus => ({
    state,
    kind: null,
    source,
    ruleId: "x",
    seq: 1,
    since: 0,
    msg: "approve Bash: make",
  });
  assert.equal(promptFor(m.prompts, status("working", "screen"), view(lines)), null);
  assert.equal(promptFor(m.prompts, status("blocked", "screen"), view(lines))?.subject, "make");
  assert.equal(
    promptFor(m.prompts, status("blocked", "declared"), view(lines))?.subject,
    "approve Bash: make",
  );
});

Deno.test("prompt: same question and labels are the same prompt", () => {
  const a = readPrompt(m.prompts, view(["Run it?", "❯ 1. Yes", "  2. No"]));
  const moved = readPrompt(m.prompts, view(["Run it?", "  1. Yes", "❯ 2. No"]));
  const other = readPrompt(m.prompts, view(["Delete it?", "❯ 1. Yes", "  2. No"]));
  assert.ok(samePrompt(a, moved));
  assert.ok(!samePrompt(a, other));
  assert.ok(!samePrompt(a, null));
});

Deno.test("input: a region holding one of `not` has no box (the text there was submitted)", () => {
  const queued = parseManifest(
    "id: q\ninput:\n  region: { bottom: 3 }\n  pattern: '^› (?<text>.*)$'\n  not: ['^  Waiting']\n",
    "q.yml",
  );
  assert.equal(readInput(queued.input, view(["› fix it", "", "  ? for shortcuts"])), "fix it");
  assert.equal(readInput(queued.input, view(["› fix it", "", "  Waiting for startup"])), null);
});

Deno.test("input: the last box above its rule; none on screen is null", () => {
  assert.equal(readInput(m.input, view(["> old prompt", "", "> fix  the", "---"])), "fix the");
  assert.equal(readInput(m.input, view(["> ", "---"])), "");
  assert.equal(readInput(m.input, view(["Run it?", "❯ 1. Yes"])), null);
});

const errors: [string, string, RegExp][] = [
  [
    "no label group",
    "prompts:\n  - id: p\n    any: [x]\n    question: [q]\n    option: '\\d+'\n",
    /:6: Prompt "p": option needs a \(\?<label>…\) group$/,
  ],
  [
    "a second option pattern without a label group",
    "prompts:\n  - id: p\n    any: [x]\n    question: [q]\n    option: ['(?<label>a)(?<number>1)', 'b']\n",
    /:6: Prompt "p": option needs a \(\?<label>…\) group$/,
  ],
  [
    "option and row",
    "prompts:\n  - id: p\n    any: [x]\n    question: [q]\n    option: '(?<label>a)'\n    row: '(?<items>a)'\n    split: ' '\n",
    /:3: Prompt "p" needs exactly one of option and row$/,
  ],
  [
    "row without split",
    "prompts:\n  - id: p\n    any: [x]\n    question: [q]\n    row: '(?<items>a)'\n    choose: arrows\n",
    /:6: Prompt "p": row and split go together$/,
  ],
  [
    "no question",
    "prompts:\n  - id: p\n    any: [x]\n    option: '(?<label>a)'\n",
    /:3: Prompt "p" needs a question pattern$/,
  ],
  [
    "bad regex",
    "prompts:\n  - id: p\n    any: [x]\n    question: ['(open']\n    option: '(?<label>a)'\n",
    /:5: Invalid regex "\(open"/,
  ],
  [
    "input without text",
    "input:\n  pattern: '^> .*'\n",
    /:3: input\.pattern needs a \(\?<text>…\) group$/,
  ],
];

for (const [what, body, expected] of errors) {
  Deno.test(`prompt manifest: ${what} is a file:line error`, () => {
    assert.throws(() => parseManifest(`id: demo\n${body}`, "demo.yml"), (e: unknown) => {
      assert.ok(e instanceof ManifestError);
      assert.match(e.message, expected);
      return true;
    });
  });
}
