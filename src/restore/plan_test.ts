import assert from "node:assert/strict";
import { savedSession } from "./test_util.ts";
import { type PlanContext, planRestore, preface } from "./plan.ts";
import type { SavedSession } from "./state_file.ts";

const ctx: PlanContext = {
  env: { API_TOKEN: "from-env" },
  resumeCommand: (agent) => (agent === "claude" ? "claude --resume {id}" : null),
  program: (agent) => agent,
  isDirectory: (path) => ["/src", "/src/app", "/home/me"].includes(path),
  exists: (path) => path === "/t/abc.jsonl",
  home: "/home/me",
};

function saved(more: Partial<SavedSession> = {}): SavedSession {
  return savedSession("s", { group: "g", cwd: "/src", ...more });
}

const conversation = {
  agent: "claude",
  id: "abc",
  source: "hook Stop: session_id",
  cwd: "/src/app",
  transcript: "/t/abc.jsonl",
};

Deno.test("planRestore(): a plain shell restarts in its cwd, a command as it was", () => {
  const shell = planRestore(saved(), ctx);
  assert.equal(shell.command, undefined);
  assert.equal(shell.cwd, "/src");
  assert.equal(shell.how, "shell in /src");
  assert.equal(planRestore(saved({ command: "make dev" }), ctx).command, "make dev");
});

Deno.test("planRestore(): an agent with a conversation id restarts with its resume command", () => {
  // The session's own command launched the agent: the resume command replaces it.
  const own = planRestore(
    saved({ command: "claude -p 'fix it'", agent: "claude", conversation }),
    ctx,
  );
  assert.equal(own.command, "claude --resume abc");
  assert.equal(own.cwd, "/src/app", "where the agent said it runs");
  assert.deepEqual(own.resumed, { agent: "claude", id: "abc" });
  assert.equal(own.how, "resumes claude conversation abc (hook Stop: session_id)");
  assert.equal(own.savedCommand, "claude -p 'fix it'", "the file keeps the session's own command");
  // Typed into a shell: the shell again, the resume command typed at its prompt.
  const typed = planRestore(saved({ agent: "claude", conversation }), ctx);
  assert.equal(typed.command, undefined);
  assert.equal(typed.typed, "claude --resume abc");
  assert.equal(typed.savedCommand, null);
  // The id is one shell word whatever it holds.
  const odd = { ...conversation, id: "a:b.c-1", transcript: null };
  assert.equal(
    planRestore(saved({ agent: "claude", conversation: odd }), ctx).typed,
    "claude --resume a:b.c-1",
  );
});

Deno.test("planRestore(): an agent without a usable id restarts fresh and says why", () => {
  const cases: [Partial<SavedSession>, string][] = [
    [{ agent: "claude" }, "starts claude fresh: no conversation id was seen"],
    [
      { agent: "claude", conversation: { ...conversation, agent: "codex" } },
      "starts claude fresh: no conversation id was seen",
    ],
    [
      { agent: "claude", conversation: { ...conversation, transcript: "/gone.jsonl" } },
      "starts claude fresh: its transcript is gone",
    ],
    [
      { agent: "aider", conversation: { ...conversation, agent: "aider" } },
      "starts aider fresh: its manifest has no resume command",
    ],
  ];
  for (const [more, how] of cases) {
    const plan = planRestore(saved(more), ctx);
    assert.equal(plan.how, how);
    assert.equal(plan.resumed, null);
    assert.equal(plan.typed, more.agent);
  }
  assert.equal(
    planRestore(saved({ agent: "claude", command: "claude --model x" }), ctx).command,
    "claude --model x",
  );
});

Deno.test("planRestore(): an id read from the file passes the hook's id rule or is not used", () => {
  for (const id of ["--dangerously-skip-permissions", "-p", "a b", "x;rm -rf ~", "\x1b[2Jx"]) {
    for (const command of [null, "claude"]) {
      const plan = planRestore(
        saved({ agent: "claude", command, conversation: { ...conversation, id } }),
        ctx,
      );
      assert.equal(plan.resumed, null, id);
      assert.equal(plan.command, command ?? undefined, "its own command, never a resume line");
      assert.equal(plan.typed, command === null ? "claude" : undefined);
      assert.match(plan.how, /^starts claude fresh: the saved conversation id .* is not an id$/);
      assert.ok(!plan.how.includes("\x1b"), "printed escaped");
    }
  }
});

Deno.test("planRestore(): secrets come from the environment, a gone cwd falls back to home", () => {
  const plan = planRestore(
    saved({
      cwd: "/deleted",
      env: [
        { name: "PORT", value: "3000" },
        { name: "API_TOKEN", secret: true },
        { name: "DB_PASSWORD", secret: true },
      ],
    }),
    ctx,
  );
  assert.deepEqual(plan.env, { PORT: "3000", API_TOKEN: "from-env" });
  assert.deepEqual(plan.secrets, ["API_TOKEN", "DB_PASSWORD"]);
  assert.equal(plan.cwd, "/home/me");
  assert.deepEqual(plan.notes, [
    "not in the environment, not set: DB_PASSWORD",
    "/deleted is gone: started in /home/me",
  ]);
});

Deno.test("preface() dims the old screen, and no escape from a hand-edited file reaches the emulator", () => {
  assert.equal(
    preface(["$ ls", "a\x1b]0;x\x07b"]),
    "\x1b[2m$ ls\r\na ]0;x b\r\n── restored by lazyshell: the screen above is from before ──\x1b[0m\r\n",
  );
});
