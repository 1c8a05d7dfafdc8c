/**
 * The built-in manifests on screens the shared captures do not hold: the
 * agents' other prompts and the prose-question traps of captures/README.md
 * (held-out scenarios). Rules are written from the UI, so these must hold.
 */

import assert from "node:assert/strict";
import { loadCatalogSync } from "../src/runtime/catalog.ts";
import { evaluate } from "../src/detect/rules.ts";
import {
  CLAUDE_EDIT,
  CLAUDE_MOVED,
  CLAUDE_PLAN,
  CODEX_EDIT,
  OPENCODE_QUESTION,
} from "./testdata/agent_screens.ts";

const catalog = loadCatalogSync({ userDir: null });

function view(text: string, title = "") {
  const lines = text.split("\n");
  return { cols: 120, rows: lines.length, title, line: (y: number) => lines[y] ?? "" };
}

const RULE = "─".repeat(120);

const cases: [string, string, string, string, string][] = [
  [
    "claude",
    "prose question at the end of a turn is done, not blocked",
    `● Done. Would you like me to add a regression test?

✻ Worked for 4s · done 2:57 PM

${RULE}
❯ 
${RULE}
  ⏸ manual mode on · ? for shortcuts`,
    "",
    "done/turn-complete",
  ],
  [
    "claude",
    "interrupted turn asks in prose: idle",
    `● Step 1: still thinking
  ⎿  Interrupted · What should Claude do instead?

${RULE}
❯ 
${RULE}
  ⏸ manual mode on · ? for shortcuts`,
    "✳ Claude Code",
    "idle/idle-prompt",
  ],
  [
    "claude",
    "edit prompt without the tool footer",
    CLAUDE_EDIT,
    "✳ Claude Code",
    "blocked/permission-menu",
  ],
  [
    "claude",
    "plan approval menu",
    CLAUDE_PLAN,
    "",
    "blocked/permission-menu",
  ],
  [
    "claude",
    "cursor moved to option 2 of a permission menu",
    CLAUDE_MOVED,
    "",
    "blocked/permission-menu",
  ],
  [
    "claude",
    "AskUserQuestion",
    ` ☐ Framework
Which test framework should I use?
❯ 1. pytest (Recommended)
  2. unittest
  3. Type something.
  4. Chat about this
Enter to select · ↑/↓ to navigate · Esc to cancel`,
    "",
    "blocked/question-menu",
  ],
  [
    "claude",
    "auto mode footer while working",
    `✶ Cogitating… (3s · ↓ 20 tokens)

${RULE}
❯ 
${RULE}
  ⏵⏵ auto mode on (shift+tab to cycle) · esc to interrupt`,
    "",
    "working/working",
  ],
  [
    "claude",
    "a completion line with minutes and another verb",
    `● All set.

✽ Baked for 2m 30s

${RULE}
❯ 
${RULE}
  ? for shortcuts`,
    "",
    "done/turn-complete",
  ],
  [
    "claude",
    "a user prompt that reads like a menu is not blocked",
    `❯ 1. Yes please, do it

● Sure.
${RULE}
❯ 
${RULE}
  ? for shortcuts`,
    "",
    "idle/idle-prompt",
  ],
  [
    "codex",
    "prose question at the end of a turn is done",
    `• Done. Would you like me to add a regression test?
  Worked for 4s • 15:01
› Ask Codex to do anything
  mock-model default · /w · task
  ← for agents · ? for shortcuts`,
    "task | w",
    "done/turn-complete",
  ],
  [
    "codex",
    "edit approval shares the footer",
    CODEX_EDIT,
    "",
    "blocked/approval",
  ],
  [
    "codex",
    "denied approval is idle",
    `✗ You canceled the request to run touch lab-file.txt
› Ask Codex to do anything
  mock-model default · /w · task
  ← for agents · ? for shortcuts`,
    "task | w",
    "idle/interrupted",
  ],
  [
    "opencode",
    "prose question at the end of a turn is done",
    `     Would you like me to add a regression test?
     ▣  Build · Mock Model · 3.2s
  ┃
  ┃
  ┃
  ┃  Build · Mock Model Mock LLM
  ╹▀▀▀▀▀▀▀▀
   /w                                    120 (0%)  ctrl+p commands`,
    "OC | Lab session",
    "done/turn-complete",
  ],
  [
    "opencode",
    "its question tool",
    OPENCODE_QUESTION,
    "",
    "blocked/question",
  ],
  [
    "gemini",
    "ready title with a prose question on screen",
    `✦ Would you like me to add a regression test?
 >   Type your message or @path/to/file`,
    "◇  Ready (w)",
    "idle/ready-title",
  ],
  [
    "qwen",
    "a prose question with the idle title",
    `  ◆︎ Would you like me to add a regression test?
> Type your message`,
    "Qwen - w",
    "idle/ready-title",
  ],
  // Failed turns (the rows of the lab captures of tools/capture fail-* scenarios), and the
  // same error text once a later turn moved past it: never error again.
  [
    "qwen",
    "a failed turn: the API error right above the input (qwen-fail-auth @1097807)",
    `  > LAB-FAIL-AUTH: please create the marker file lab-file.txt
  ✕ [API Error: 401 Incorrect API key provided: lab-dumm***-key.] (Press Ctrl+Y to retry)



${RULE}
>   Type your message or @path/to/file
${RULE}
  ➜ qwen-qwen-fail-auth · git:(master) · mock-model
  Auto mode (shift + tab to cycle)`,
    "Qwen - qwen-qwen-fail-auth",
    "error/turn-failed",
  ],
  [
    "qwen",
    "a later turn's answer below an old API error: not error",
    `  ✕ [API Error: 401 Incorrect API key provided: lab-dumm***-key.] (Press Ctrl+Y to retry)
  > try again
  ✦ Done.
${RULE}
>   Type your message or @path/to/file
${RULE}
  Auto mode (shift + tab to cycle)`,
    "Qwen - w",
    "idle/ready-title",
  ],
  [
    "gemini",
    "a later turn's answer below an old API error: not error",
    `✕ [API Error: {"error":{"code":400,"message":"API key not valid."}}]
ℹ This request failed. Press F12 for diagnostics.
 > try again
✦ Done.
                                                         ? for shortcuts
${RULE}
 >   Type your message or @path/to/file`,
    "◇  Ready (w)",
    "idle/ready-title",
  ],
  [
    "claude",
    "the user typed over the failed turn's placeholder: not error",
    `● API Error: Request rejected (429) · This request would exceed the rate limit

${RULE}
❯\u00a0try again
${RULE}
  ⏸ manual mode on · ? for shortcuts`,
    "✳ Claude Code",
    "idle/idle-prompt",
  ],
  [
    "claude",
    "retrying a rate limit is working (claude-fail-rate-osc7501 @8000)",
    `✻ 429 This request would exceed the rate limit for your organization of 50 requests … · retrying in 18s · attempt 6/10
${RULE}
❯\u00a0
${RULE}`,
    "Claude Code",
    "working/working",
  ],
  [
    "codex",
    "an old failure above a finished turn: done, not error",
    `■ exceeded retry limit, last status: 429 Too Many Requests
› try again
• Hello.
  Worked for 2s • 15:01
› Ask Codex to do anything
  ? for shortcuts`,
    "w",
    "done/turn-complete",
  ],
  [
    "codex",
    "an interrupted turn is idle, not a failure",
    `■ Conversation interrupted - use /feedback if something went wrong
› Ask Codex to do anything
  ? for shortcuts`,
    "w",
    "idle/interrupted",
  ],
];

for (const [agent, what, screen, title, want] of cases) {
  Deno.test(`${agent}.yml: ${what}`, () => {
    const m = catalog.get(agent);
    assert.ok(m, agent);
    const r = evaluate(m, view(screen, title));
    assert.equal(`${r.state}/${r.ruleId}`, want);
  });
}

/** A view with colours: each row's characters in the colour of its `colors` entry (default -1). */
function colored(text: string, colors: (y: number, i: number) => number) {
  return { ...view(text), fg: colors };
}

Deno.test("opencode.yml: a red-barred toast beside the user's blue block is a failed turn", () => {
  const m = catalog.get("opencode")!;
  const row = "  ┃  LAB-FAIL: make the file ┃  Connection reset by server  ┃";
  const toastBar = row.indexOf("┃", 10);
  const screen = `${row}\n\n${"   x\n".repeat(20)}   ~/work   tab agents  ctrl+p commands`;
  const red = 0x1000000 | 0xe06c75;
  const blue = 0x1000000 | 0x5c9cf5;
  const r = evaluate(m, colored(screen, (y, i) => (y === 0 && i >= toastBar ? red : blue)));
  assert.deepEqual([r.state, r.ruleId, r.kind, r.msg], [
    "error",
    "turn-failed-toast",
    "connection",
    "Connection reset by server",
  ]);
  const calm = evaluate(m, colored(screen, () => blue));
  assert.equal(calm.state, "idle", "blue bars only: the user's own blocks");
});
