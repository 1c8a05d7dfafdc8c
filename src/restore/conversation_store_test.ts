/**
 * The agents' own stores, laid out in temp dirs as the real CLIs write them
 * (Claude Code 2.1.332, Codex 0.171.0, opencode 1.18.33: tools/live/README.md),
 * read through the built-in manifests' `resume.store`.
 */

import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { parseManifest } from "../detect/manifest.ts";
import type { ConversationStoreSpec } from "../detect/manifest.ts";
import { conversationOfProcess, conversationsSince } from "./conversation_store.ts";

function store(agent: string): ConversationStoreSpec {
  const file = new URL(`../../manifests/${agent}.yml`, import.meta.url);
  return parseManifest(Deno.readTextFileSync(file), `${agent}.yml`, agent).resume!.store!;
}

const T0 = Date.UTC(2026, 11, 2, 14, 8, 33);
const iso = (t: number) => new Date(t).toISOString();

function write(path: string, text: string, mtime?: number): void {
  Deno.mkdirSync(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  Deno.writeTextFileSync(path, text);
  if (mtime !== undefined) Deno.utimeSync(path, mtime / 1000, mtime / 1000);
}

/** A Claude Code transcript: mode lines first, then the first prompt with cwd and timestamp. */
function claudeTranscript(id: string, cwd: string, at: number): string {
  return [
    { type: "mode", mode: "normal", sessionId: id },
    { type: "permission-mode", permissionMode: "default", sessionId: id },
    { type: "file-history-snapshot", messageId: "m1", snapshot: { timestamp: iso(at) } },
    {
      parentUuid: null,
      type: "user",
      message: { role: "user", content: "hello" },
      timestamp: iso(at),
      cwd,
      sessionId: id,
      version: "2.1.332",
    },
  ].map((r) => JSON.stringify(r)).join("\n") + "\n";
}

Deno.test("claude: transcripts of the cwd's project folder, by cwd and time; CLAUDE_CONFIG_DIR", async () => {
  const home = Deno.makeTempDirSync({ prefix: "lzs-claude-store-" });
  try {
    const cwd = "/work/my_app";
    const project = `${home}/.claude/projects/-work-my-app`;
    const a = "816a5b24-862e-45be-abc0-1d08da9d474d";
    const b = "f901bde4-00cf-476e-baad-bbf470c4d32e";
    write(`${project}/${a}.jsonl`, claudeTranscript(a, cwd, T0 - 60_000), T0 - 50_000);
    write(`${project}/${b}.jsonl`, claudeTranscript(b, cwd, T0 + 5_000), T0 + 9_000);
    // Same slug, another folder (`/work/my-app`): not this cwd's.
    const c = "0a1b2c3d-0000-4000-8000-000000000000";
    write(`${project}/${c}.jsonl`, claudeTranscript(c, "/work/my-app", T0 + 6_000), T0 + 9_500);
    write(`${project}/torn.jsonl`, "{not json\n", T0 + 9_000);
    const facts = { agent: "claude", env: { HOME: home }, pid: 1673, cwd, now: T0 + 10_000 };
    const found = await conversationsSince(store("claude"), facts, T0 - 2000);
    assert.deepEqual(found.map((f) => [f.id, f.createdAt, f.modifiedAt]), [[
      b,
      T0 + 5000,
      T0 + 9000,
    ]]);
    assert.equal(found[0]!.transcript, `${project}/${b}.jsonl`);
    assert.equal(found[0]!.where, `claude transcript ~/.claude/projects/-work-my-app/${b}.jsonl`);
    const all = await conversationsSince(store("claude"), facts, -Infinity);
    assert.deepEqual(all.map((f) => f.id), [b, a]);
    // CLAUDE_CONFIG_DIR moves the whole store.
    const moved = { ...facts, env: { HOME: home, CLAUDE_CONFIG_DIR: `${home}/cc` } };
    assert.deepEqual(await conversationsSince(store("claude"), moved, -Infinity), []);
    write(`${home}/cc/projects/-work-my-app/${a}.jsonl`, claudeTranscript(a, cwd, T0), T0 + 1000);
    assert.deepEqual((await conversationsSince(store("claude"), moved, T0)).map((f) => f.id), [a]);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("claude: the process file names the conversation once its transcript exists; start time checked", async () => {
  const home = Deno.makeTempDirSync({ prefix: "lzs-claude-proc-" });
  try {
    const cwd = "/work/app";
    const id = "f901bde4-00cf-476e-baad-bbf470c4d32e";
    const record = (procStart: string, sessionId = id) =>
      JSON.stringify({
        pid: 1673,
        sessionId,
        cwd,
        startedAt: T0,
        procStart,
        version: "2.1.332",
        kind: "interactive",
        status: "idle",
      });
    write(`${home}/.claude/sessions/1673.json`, record("33500"));
    const facts = { agent: "claude", env: { HOME: home }, pid: 1673, cwd, now: T0 };
    // No prompt yet: no transcript, nothing to resume.
    assert.equal(await conversationOfProcess(store("claude"), facts, 33500), null);
    write(`${home}/.claude/projects/-work-app/${id}.jsonl`, claudeTranscript(id, cwd, T0 + 3000));
    const found = await conversationOfProcess(store("claude"), facts, 33500);
    assert.equal(found?.id, id);
    assert.equal(found?.where, "claude process file ~/.claude/sessions/1673.json");
    assert.equal(found?.transcript, `${home}/.claude/projects/-work-app/${id}.jsonl`);
    // Another process that had this pid before (another start time): not its.
    assert.equal(await conversationOfProcess(store("claude"), facts, 99), null);
    // An id that could not go on a command line as one word is never taken.
    write(`${home}/.claude/sessions/1673.json`, record("33500", "--dangerously-skip-permissions"));
    assert.equal(await conversationOfProcess(store("claude"), facts, 33500), null);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("codex: dated rollouts, session_meta's id, cwd and timestamp; CODEX_HOME", async () => {
  const home = Deno.makeTempDirSync({ prefix: "lzs-codex-store-" });
  try {
    const cwd = "/work/app";
    const id = "01a23717-a377-7d92-a03a-b0c86c536f4c";
    const meta = (id: string, cwd: string, at: number) =>
      JSON.stringify({
        timestamp: iso(at + 50_000),
        type: "session_meta",
        payload: { session_id: id, id, timestamp: iso(at), cwd, originator: "codex-tui" },
      }) + "\n" + JSON.stringify({ timestamp: iso(at + 50_000), type: "response_item" }) + "\n";
    const day = `${home}/.codex/sessions/2026/12/02`;
    write(`${day}/rollout-2026-12-02T14-10-25-${id}.jsonl`, meta(id, cwd, T0 + 5000), T0 + 60_000);
    const other = "01a23717-0000-7d92-a03a-b0c86c536f4c";
    write(`${day}/rollout-2026-12-02T14-11-00-${other}.jsonl`, meta(other, "/else", T0 + 6000));
    const old = "01a23717-1111-7d92-a03a-b0c86c536f4c";
    write(
      `${home}/.codex/sessions/2026/11/20/rollout-2026-11-20T09-00-00-${old}.jsonl`,
      meta(old, cwd, T0 - 12 * 86_400_000),
      T0 + 30_000,
    );
    const facts = { agent: "codex", env: { HOME: home }, pid: 9, cwd, now: T0 + 60_000 };
    const found = await conversationsSince(store("codex"), facts, T0);
    // The November rollout is not read: its folder is before the agent's start.
    assert.deepEqual(found.map((f) => [f.id, f.createdAt]), [[id, T0 + 5000]]);
    assert.match(found[0]!.where, /^codex transcript ~\/\.codex\/sessions\/2026\/12\/02\/rollout-/);
    const moved = { ...facts, env: { HOME: home, CODEX_HOME: `${home}/elsewhere` } };
    assert.deepEqual(await conversationsSince(store("codex"), moved, T0), []);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("opencode: its database's top-level sessions of the folder, written since", async () => {
  const home = Deno.makeTempDirSync({ prefix: "lzs-opencode-store-" });
  try {
    Deno.mkdirSync(`${home}/.local/share/opencode`, { recursive: true });
    const file = `${home}/.local/share/opencode/opencode.db`;
    const db = new DatabaseSync(file);
    db.exec(`CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL,
      parent_id text, slug text NOT NULL, directory text NOT NULL, title text NOT NULL,
      version text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL,
      time_archived integer)`);
    const add = db.prepare(
      "INSERT INTO session VALUES (?, 'p', ?, 's', ?, 't', '1.18.33', ?, ?, ?)",
    );
    add.run("ses_dc8e58fa4ffeWi09yHVFjmb2Wh", null, "/work/app", T0 + 1000, T0 + 40_000, null);
    add.run(
      "ses_sub0000000000000000000000",
      "ses_dc8e58fa4ffeWi09yHVFjmb2Wh",
      "/work/app",
      T0 + 2000,
      T0 + 41_000,
      null,
    );
    add.run("ses_else000000000000000000000", null, "/work/else", T0 + 3000, T0 + 42_000, null);
    add.run("ses_old0000000000000000000000", null, "/work/app", T0 - 90_000, T0 - 80_000, null);
    add.run(
      "ses_arch000000000000000000000",
      null,
      "/work/app",
      T0 + 4000,
      T0 + 43_000,
      T0 + 44_000,
    );
    db.close();
    const facts = { agent: "opencode", env: { HOME: home }, pid: 9, cwd: "/work/app", now: T0 };
    const found = await conversationsSince(store("opencode"), facts, T0);
    assert.deepEqual(found.map((f) => [f.id, f.createdAt, f.modifiedAt, f.transcript]), [
      ["ses_dc8e58fa4ffeWi09yHVFjmb2Wh", T0 + 1000, T0 + 40_000, null],
    ]);
    assert.equal(found[0]!.where, "opencode database ~/.local/share/opencode/opencode.db");
    // XDG_DATA_HOME elsewhere, or a file that is not a database: nothing, no error.
    const moved = { ...facts, env: { HOME: home, XDG_DATA_HOME: `${home}/x` } };
    assert.deepEqual(await conversationsSince(store("opencode"), moved, T0), []);
    Deno.writeTextFileSync(file, "not a database");
    assert.deepEqual(await conversationsSince(store("opencode"), facts, T0), []);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});
