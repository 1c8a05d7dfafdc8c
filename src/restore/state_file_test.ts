import assert from "node:assert/strict";
import { savedSession } from "./test_util.ts";
import {
  formatState,
  parseState,
  RESTORED_RULE,
  savedEnv,
  savedScreen,
  type SavedSession,
} from "./state_file.ts";

function saved(name: string, more: Partial<SavedSession> = {}): SavedSession {
  return savedSession(name, { cwd: "/src", ...more });
}

Deno.test("formatState() and parseState() round-trip every field", () => {
  const sessions = [
    saved("web", {
      group: "dev",
      command: "npm run dev",
      origin: "/src/lazyshell.yml",
      env: [{ name: "PORT", value: "3000" }, { name: "API_TOKEN", secret: true }],
      watch: [{ pattern: "ERROR", notify: true }],
      watcher: "panic",
      screen: ["$ npm run dev", "ready on :3000"],
    }),
    saved("agent", {
      agent: "claude",
      conversation: {
        agent: "claude",
        id: "e9c316ae-92b1-4211-89a8-247c5ceb4c3d",
        source: "hook Stop: session_id",
        cwd: "/src",
        transcript: "/home/me/.claude/projects/-src/e9c316ae.jsonl",
      },
      pending: true,
    }),
  ];
  const text = formatState(sessions, 1234);
  assert.equal(text.split("\n").length, 4, "a header, one line a session, a final newline");
  assert.deepEqual(parseState(text), { sessions, problems: [], written: 1234 });
});

Deno.test("parseState() keeps every valid session of a damaged file and names each bad line", () => {
  const good = formatState([saved("a"), saved("b"), saved("c")], 1).split("\n");
  const text = [good[0], good[1], "{torn", JSON.stringify({ name: "\x1bbad", cwd: "/" }), good[3]]
    .join("\n");
  const parsed = parseState(text);
  assert.deepEqual(parsed.sessions.map((s) => s.name), ["a", "c"]);
  assert.deepEqual(parsed.problems, [
    "line 3: not JSON",
    "line 4: name: Invalid session name",
  ]);
});

Deno.test("parseState() tells a torn file by its header's count, and survives any text", () => {
  const text = formatState([saved("a"), saved("b")], 1);
  const torn = text.slice(0, text.lastIndexOf("{"));
  assert.deepEqual(parseState(torn).problems, ["torn: 1 of 2 session lines"]);
  assert.deepEqual(parseState(torn).sessions.map((s) => s.name), ["a"]);
  assert.deepEqual(parseState("").problems, ["empty file"]);
  assert.deepEqual(parseState("\0\0\0").problems, ["line 1: not JSON"]);
  // No header at all: its sessions still count.
  const headless = text.split("\n").slice(1).join("\n");
  assert.deepEqual(parseState(headless).sessions.map((s) => s.name), ["a", "b"]);
  assert.match(parseState(headless).problems[0]!, /line 1: not a lazyshell state header/);
});

Deno.test("savedEnv() never keeps a value the env tab would mask", () => {
  assert.deepEqual(
    savedEnv({
      PORT: "3000",
      API_TOKEN: "hunter2",
      DATABASE_URL: "postgres://u:p@db/x",
      UPSTREAM: "https://user:pw@example.com/",
      NOTE: "ghp_0123456789abcdefghij",
      MY_CRED: "c",
      GCP_CREDS: "c",
      SMTP_PASSCODE: "p",
      PROXY_AUTHORIZATION: "a",
      PASSENGER: "not a secret",
    }),
    [
      { name: "PORT", value: "3000" },
      { name: "API_TOKEN", secret: true },
      { name: "DATABASE_URL", secret: true },
      { name: "UPSTREAM", secret: true },
      { name: "NOTE", secret: true },
      { name: "MY_CRED", secret: true },
      { name: "GCP_CREDS", secret: true },
      { name: "SMTP_PASSCODE", secret: true },
      { name: "PROXY_AUTHORIZATION", secret: true },
      { name: "PASSENGER", value: "not a secret" },
    ],
  );
});

Deno.test("savedScreen() keeps the rows that show something, bounded, once", () => {
  assert.deepEqual(savedScreen(["", "$ ls   ", "a  b", "", ""]), ["$ ls", "a  b"]);
  const long = Array.from({ length: 150 }, (_, i) => `row ${i}`);
  assert.deepEqual(savedScreen(long).length, 100);
  assert.equal(savedScreen(long).at(-1), "row 149");
  assert.equal(savedScreen(["x".repeat(900)])[0]!.length, 500);
  // A restored session's old screen is not saved again under the new one.
  assert.deepEqual(savedScreen(["old", RESTORED_RULE, "$ new"]), ["$ new"]);
});
