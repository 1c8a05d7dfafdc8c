/**
 * Screens of agent prompts the fixtures do not hold, as the agents draw them
 * (fixtures/captures/README.md): shared by the rule and prompt-reader tests.
 */

export const CLAUDE_EDIT = ` Edit file
 app.py
 Do you want to make this edit to app.py?
 ❯ 1. Yes
   2. Yes, allow all edits during this session (shift+tab)
   3. No, and tell Claude what to do differently (esc)`;

export const CLAUDE_PLAN = ` Would you like to proceed?
 ❯ 1. Yes, and auto-accept edits
   2. Yes, and manually approve edits
   3. No, keep planning`;

export const CLAUDE_MOVED = ` Do you want to proceed?
   1. Yes
 ❯ 2. Yes, and always allow access to /tmp/x from this project
   3. No`;

export const CLAUDE_ASK = ` ☐ Framework
Which test framework should I use?
❯ 1. pytest (Recommended)
     Use pytest fixtures and plain asserts
  2. unittest
  3. Type something.
  4. Chat about this
Enter to select · ↑/↓ to navigate · Esc to cancel`;

export const CODEX_EDIT = `  Would you like to make the following edits?
  app.py (+1 -1)
› 1. Yes, proceed (y)
  2. No, and tell Codex what to do differently (esc)
  Press enter to confirm or esc to cancel`;

export const OPENCODE_QUESTION = `  ┃  Which test framework should I use?
  ┃  1. pytest (Recommended)
  ┃  2. unittest
  ┃  3. Type your own answer
  ┃
  ┃  ↑↓ select  enter submit  esc dismiss`;
