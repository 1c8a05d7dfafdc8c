import assert from "node:assert/strict";
import type * as Protocol from "../src/plugin/protocol.ts";
import type { HostMessage, SessionEntry } from "../src/plugin/protocol.ts";
import type * as Wire from "./_wire.ts";
import { builtinEntry } from "../src/plugin/discovery.ts";
import { sessionEntry, TestHost } from "../src/plugin/test_util.ts";
import { AgentsTab } from "./agents/agents.ts";
import { EnvTab, isSecret, isSecretName, MASK } from "./env/env.ts";
import { StatsTab } from "./stats/stats.ts";
import { WatchersTab } from "./watchers/watchers.ts";
import type { Outgoing } from "./_sdk.ts";

/** The built-ins' own types (plugins/_wire.ts) take what the host sends, and the host takes what they write. */
type Fits<A, B> = [A] extends [B] ? true : false;
const _hostSide: Fits<Protocol.HostMessage, Wire.HostMessage> = true;
const _pluginSide: Fits<Wire.PluginMessage, Protocol.PluginMessageInput> = true;

// deno-lint-ignore no-control-regex
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");
const key = (k: string, text = k.length === 1 ? k : ""): HostMessage => ({
  type: "key",
  key: k,
  text,
});

function session(over: Partial<SessionEntry>): SessionEntry {
  return sessionEntry({ selected: false, ...over });
}

Deno.test("env masks secret-looking names until revealed on purpose", () => {
  for (
    const name of [
      "GITHUB_TOKEN",
      "AWS_SECRET_ACCESS_KEY",
      "API_KEY",
      "PGPASSWORD",
      "DB_PASS",
      "MY_CRED",
      "CREDS_FILE",
      "SMTP_PASSCODE",
      "X_AUTH_HEADER",
    ]
  ) {
    assert.equal(isSecretName(name), true, name);
  }
  for (const name of ["PATH", "HOME", "PWD", "OLDPWD", "LANG", "PASSENGER", "UPGRADE_URL"]) {
    assert.equal(isSecretName(name), false, name);
  }
  const tab = new EnvTab();
  tab.handle({ type: "env", session: "session-1", vars: { API_KEY: "sk-123", PATH: "/bin" } });
  let view = plain(tab.frame().view);
  assert.ok(!view.includes("sk-123"), "masked");
  assert.ok(view.includes(MASK) && view.includes("/bin"));
  tab.handle(key("enter"));
  assert.ok(plain(tab.frame().view).includes("sk-123"), "revealed with enter");
  tab.handle(key("enter"));
  assert.ok(!plain(tab.frame().view).includes("sk-123"), "hidden again");
  tab.handle(key("R"));
  assert.ok(!plain(tab.frame().view).includes("sk-123"), "one R only asks");
  tab.handle(key("R"));
  assert.ok(plain(tab.frame().view).includes("sk-123"), "R R reveals all");
  tab.handle({ type: "env", session: "session-2", vars: { API_KEY: "sk-999" } });
  view = plain(tab.frame().view);
  assert.ok(!view.includes("sk-999"), "another session starts masked");
});

Deno.test("env masks credentials by rule: connection strings, PATs, JWTs, passwords, webhooks, keys", () => {
  const leaked: Record<string, string> = {
    DATABASE_URL: "postgres://app:s3cret@db.internal:5432/app",
    MONGODB_URI: "mongodb+srv://root:hunter2@cluster0.example.net/prod",
    REDIS_URL: "redis://:p4ss@cache:6379/0",
    GITHUB_PAT: "github_pat_11ABCDEFG0123456789abcdef",
    GH_PAT: "ghp_0123456789abcdefghijklmnopqrstuvwxyz",
    CI_JOB_JWT: "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJqb2IifQ.c2lnbmF0dXJl",
    MYSQL_PWD: "root",
    SLACK_WEBHOOK_URL: "https://hooks.slack.com/services/T000/B000/XXXXXXXX",
    STRIPE_SK: "sk_live_51H0123456789",
    // Whatever the name, a value carrying a credential:
    UPSTREAM: "https://deploy:tok3n@git.example.com/app.git",
    MY_SETTING: "ghp_0123456789abcdefghijklmnopqrstuvwxyz",
  };
  for (const [name, value] of Object.entries(leaked)) {
    assert.equal(isSecret(name, value), true, name);
  }
  const plainVars: Record<string, string> = {
    PWD: "/home/me/src",
    OLDPWD: "/home/me",
    HOMEPAGE: "https://example.com/docs",
    GIT_URL: "ssh://git@github.com/me/app.git",
    PATH: "/usr/bin:/bin",
    EDITOR: "vim",
  };
  for (const [name, value] of Object.entries(plainVars)) {
    assert.equal(isSecret(name, value), false, name);
  }
  const tab = new EnvTab();
  tab.handle({ type: "env", session: "session-1", vars: { ...leaked, ...plainVars } });
  const frame = tab.frame();
  const view = plain(frame.view);
  for (const value of Object.values(leaked)) assert.ok(!view.includes(value), value);
  assert.equal(frame.count, Object.keys(leaked).length);
});

Deno.test("stats shows the sessions at a usage limit: the reset, the resume, its policy, done and failed", () => {
  const now = Date.parse("2026-12-02T00:47:00Z");
  const tab = new StatsTab(() => now);
  const resume = (over: Partial<NonNullable<SessionEntry["limitResume"]>>) => ({
    phase: "waiting",
    reason: null,
    policy: "auto",
    policyFrom: "group",
    resumed: 0,
    failed: 0,
    ...over,
  });
  tab.handle({
    type: "sessions",
    sessions: [
      session({
        name: "cl2",
        agent: "claude",
        state: "error",
        kind: "limit",
        resetsAt: now + (2 * 60 + 13) * 60_000,
        limitResume: resume({}),
      }),
      session({
        id: "session-2",
        name: "cx1",
        agent: "codex",
        state: "idle",
        limitResume: resume({ phase: "none", policy: "off", policyFrom: "session", resumed: 2 }),
      }),
      session({
        id: "session-3",
        name: "oc",
        agent: "opencode",
        state: "error",
        kind: "limit",
        limitResume: resume({
          phase: "stopped",
          reason: "not resumed: the limit is no longer shown",
          policyFrom: "agent",
          failed: 1,
        }),
      }),
      session({ id: "session-4", name: "sh" }),
    ],
  });
  const lines = plain(tab.frame().view).split("\n");
  const at = lines.findIndex((l) => l.startsWith("USAGE LIMITS"));
  assert.ok(at > 0, lines.join("\n"));
  assert.match(lines[at]!, /USAGE LIMITS\s+RESETS\s+RESUME\s+POLICY\s+DONE\s+FAILED/);
  assert.match(lines[at + 1]!, /^cl2\s+\d\d:\d\d \(2h13m\)\s+waiting\s+auto \(group\)\s+0\s+0$/);
  assert.match(lines[at + 2]!, /^cx1\s+not limited\s+none\s+off \(session\)\s+2\s+0$/);
  assert.match(
    lines[at + 3]!,
    /^oc\s+time unknown\s+stopped\s+auto \(agent\)\s+0\s+1 {2}not resumed: the limit is no longer shown$/,
  );
  assert.equal(lines.length, at + 4, "a session that never met a limit is not listed");
  assert.equal(tab.ticking(), true, "the countdown moves");
});

Deno.test("stats shows the running turn, the last turn, turns and the stats line", () => {
  const tab = new StatsTab(() => 65_000);
  tab.handle({
    type: "sessions",
    sessions: [
      session({
        name: "claude-1",
        agent: "claude",
        state: "working",
        turns: 2,
        turnStartedAt: 0,
        lastTurnMs: 3000,
        stats: "12k tok",
      }),
      session({ id: "session-2", name: "sh", turns: 0 }),
    ],
  });
  const lines = plain(tab.frame().view).split("\n");
  assert.match(lines[2]!, /claude-1\s+claude\s+working\s+1m05s\s+3s\s+2\s+12k tok/);
  assert.match(lines[3]!, /sh\s+-\s+-\s+-\s+-\s+0/);
  assert.equal(tab.frame().count, 1);
  assert.equal(tab.ticking(), true);
  const sent: Outgoing[] = [];
  tab.handle(key("j"));
  tab.handle(key("enter"), (m) => void sent.push(m));
  assert.deepEqual(sent, [{ type: "select_session", session: "session-2" }]);
});

Deno.test("watchers arms and disarms through requests, capturing while typing", () => {
  const tab = new WatchersTab();
  const sent: Outgoing[] = [];
  const send = (m: Outgoing) => void sent.push(m);
  tab.handle({ type: "sessions", sessions: [session({})] }, send);
  tab.handle({
    type: "watchers",
    watchers: [
      { session: "session-1", pattern: "FAIL", source: "file", notify: true, matches: 3 },
      { session: "session-1", pattern: "GET /health", source: "file", notify: false, matches: 41 },
    ],
  }, send);
  assert.match(plain(tab.frame().view), /api\s+file\s+3\s+\/FAIL\//);
  assert.match(plain(tab.frame().view), /file\s+41 \(quiet\)\s+\/GET \/health\//, "counts show");
  tab.handle(key("a"), send);
  assert.equal(tab.frame().capturing, true, "global keys belong to the input field");
  for (const ch of "ERR q") tab.handle(key(ch === " " ? "space" : ch, ch), send);
  tab.handle(key("enter"), send);
  assert.deepEqual(sent[0], {
    type: "arm_watcher",
    requestId: "w1",
    session: "session-1",
    pattern: "ERR q",
  });
  assert.equal(tab.frame().capturing, false);
  tab.handle(key("x"), send);
  assert.deepEqual(sent[1], { type: "disarm_watcher", requestId: "w2", session: "session-1" });
  tab.handle({ type: "result", requestId: "w2", ok: false, error: "No live watcher" }, send);
  assert.match(plain(tab.frame().view), /Refused: No live watcher/);
});

Deno.test("agents lists installed and missing agents with their sessions", () => {
  const tab = new AgentsTab();
  tab.handle({
    type: "agents",
    agents: [
      {
        id: "claude",
        name: "Claude Code",
        installed: true,
        version: "2.1.3",
        managedDir: null,
        readDirs: [],
        source: "builtin",
        hooks: "installed",
      },
      {
        id: "codex",
        name: "Codex",
        installed: false,
        version: null,
        managedDir: null,
        readDirs: [],
        source: "user",
      },
    ],
  });
  tab.handle({ type: "sessions", sessions: [session({ agent: "claude", state: "working" })] });
  const view = plain(tab.frame().view);
  assert.match(view, /✓ Claude Code\s+2\.1\.3\s+builtin\s+installed\s+1/);
  assert.match(view, /✗ Codex\s+not on PATH\s+user\s+-\s+0/);
  assert.match(view, /sessions: api \(working\)/);
  assert.equal(tab.frame().count, 1);
});

Deno.test("agents counts an agent a session runs even when lazyshell's PATH lacks it; long names keep a space", () => {
  const tab = new AgentsTab();
  const agent = (id: string, name: string) => ({
    id,
    name,
    installed: false,
    version: null,
    managedDir: null,
    readDirs: [],
  });
  tab.handle({
    type: "agents",
    agents: [agent("codex", "Codex"), agent("copilot", "GitHub Copilot CLI")],
  });
  tab.handle({ type: "sessions", sessions: [session({ agent: "codex", state: "working" })] });
  const view = plain(tab.frame().view);
  assert.match(view, /✓ Codex\s+in a session/);
  assert.match(view, /GitHub Copilot… not on PATH/);
  assert.equal(tab.frame().count, 1);
});

Deno.test("a built-in tab runs from lazyshell itself over the same protocol", async () => {
  const entry = builtinEntry("stats");
  await using host = new TestHost({ path: entry.command[0]!, id: "stats", entry });
  host.start();
  await host.until((s) => s.phase === "running" && s.frame !== null, 30_000, "stats manifest");
  assert.equal(host.state.manifest?.title, "Stats");
  assert.equal(
    host.send({ type: "sessions", sessions: [session({ name: "web", agent: "codex", turns: 4 })] }),
    true,
    "the built-in subscribed to sessions",
  );
  await host.until((s) => s.frame?.view.includes("web") === true, 30_000, "sessions drawn");
  await host.close();
  assert.equal(host.state.phase, "stopped");
  assert.deepEqual(host.state.exit, { code: 0, signal: null }, "it exits on stdin EOF");
});
