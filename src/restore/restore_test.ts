/**
 * The state file and restore with a real runtime: real PTYs, real files.
 * The server process itself (kill -9, the client's `restore`) is in
 * tests/restore_e2e_test.ts.
 */

import assert from "node:assert/strict";
import { savedSession } from "./test_util.ts";
import { parseConfig } from "../config/config.ts";
import { Runtime } from "../runtime/runtime.ts";
import { testEnv, waitFor, waitForText } from "../session/test_util.ts";
import { SessionRestore, untrusted } from "./restore.ts";
import { formatState, parseState, RESTORED_RULE, type SavedSession } from "./state_file.ts";

async function setup(options: { manifests?: Record<string, string>; shell?: string } = {}) {
  const dir = await Deno.makeTempDir({ prefix: "lzs-restore-" });
  await Deno.mkdir(`${dir}/config/lazyshell/agents`, { recursive: true });
  for (const [id, text] of Object.entries(options.manifests ?? {})) {
    await Deno.writeTextFile(`${dir}/config/lazyshell/agents/${id}.yml`, text);
  }
  const file = `${dir}/state/sessions-test.jsonl`;
  const runtime = new Runtime({
    env: testEnv({ XDG_CONFIG_HOME: `${dir}/config`, XDG_DATA_HOME: dir, API_TOKEN: "s3cret" }),
    config: parseConfig(`shell: ${options.shell ?? "/bin/sh"}\n`, "config.yml"),
    cwd: dir,
  });
  let restore: SessionRestore | null = null;
  return {
    dir,
    file,
    runtime,
    start(
      timing: { screenQuietMs?: number; screenIntervalMs?: number; exitGraceMs?: number } = {},
    ) {
      restore = SessionRestore.start(runtime, { file, writer: { delayMs: 20 }, ...timing });
      return restore;
    },
    /** The sessions of the file (none before the first write). */
    read(): SavedSession[] {
      try {
        return [...parseState(Deno.readTextFileSync(file)).sessions];
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return [];
        throw error;
      }
    },
    async [Symbol.asyncDispose]() {
      await restore?.[Symbol.asyncDispose]();
      await runtime[Symbol.asyncDispose]();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

const saved = savedSession;

async function until(test: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

Deno.test("the state file follows the sessions, and output alone (a spinner) never writes it", async () => {
  await using t = await setup();
  // Quiet means 1 s without output: a spinner's 50 ms steps, stalled by a loaded machine (a
  // slow fork of its sleep, this thread paused), may pause 300 ms, which would read as quiet.
  const restore = t.start({ screenQuietMs: 1000, screenIntervalMs: 300, exitGraceMs: 300 });
  const writer = restore.recorder.writer;
  await until(() => writer.writes >= 1, "the first write");
  const spinner = t.runtime.createSession({
    name: "spin",
    group: "g",
    command: "i=0; while :; do i=$((i+1)); printf '\\r%s' \"$i\"; sleep 0.05; done",
  });
  await until(() => t.read().some((s) => s.name === "spin" && s.group === "g"), "spin saved");
  await waitFor(spinner, () => /\d{2}/.test(spinner.visibleLines()[0] ?? ""));
  // The file shows the session before the writer counts that write, and the session's start may
  // have asked for one more: both done before counting (a loaded machine saw 2 here, not 1).
  await writer.flush();
  const writes = writer.writes;
  // 2.5 s of a spinner: ~50 frames and a moving output clock, never quiet for 1 s.
  await new Promise((r) => setTimeout(r, 2500));
  assert.equal(writer.writes, writes, "no write for output alone");
  t.runtime.store.rename("spin", "spinner");
  await until(() => t.read().some((s) => s.name === "spinner"), "the rename saved");
  // (The file shows the rename as soon as the OS did it; the writer counts it a moment later.)
  await until(() => writer.writes > writes, "the write counted");
  // A second change as the marker: a stray write for the first would come before its write.
  t.runtime.store.rename("spinner", "spinner-2");
  await until(
    () => t.read().some((s) => s.name === "spinner-2") && writer.writes >= writes + 2,
    "the second rename saved and counted",
  );
  assert.equal(writer.writes, writes + 2, "one coalesced write for each change");
  // A screen that went quiet is saved (at most once per interval).
  t.runtime.createSession({ name: "quiet", command: "echo hello-there; exec cat" });
  await until(
    () => t.read().find((s) => s.name === "quiet")?.screen.includes("hello-there") ?? false,
    "the quiet screen saved",
  );
  // A session that exits leaves the file (after the grace a reboot's SIGTERMs need).
  t.runtime.store.kill("quiet");
  await until(
    () => !t.read().some((s) => s.name === "quiet"),
    "the exited session dropped",
    15_000,
  );
});

Deno.test("restore recreates names, groups, cwds and env, and never starts a session twice", async () => {
  await using t = await setup();
  await Deno.mkdir(`${t.dir}/a`);
  await Deno.mkdir(`${t.dir}/state`);
  await Deno.writeTextFile(
    t.file,
    formatState([
      saved("api", {
        group: "dev",
        cwd: `${t.dir}/a`,
        env: [{ name: "PORT", value: "3000" }, { name: "API_TOKEN", secret: true }],
        screen: ["$ npm start", "listening on :3000"],
      }),
      saved("worker", { command: "exec cat", cwd: t.dir, watcher: "ERROR" }),
      saved("already", {}),
    ], 1),
  );
  // A session of a saved name already runs (a project the server started): not offered.
  t.runtime.createSession({ name: "already", command: "exec cat" });
  const restore = t.start();
  assert.deepEqual(restore.offer().map((i) => [i.name, i.how]), [
    ["api", `shell in ${t.dir}/a`],
    ["worker", "runs exec cat"],
  ]);
  const outcomes = restore.restore("all");
  assert.deepEqual(outcomes.map((o) => o.ok), [true, true]);
  const api = t.runtime.store.find("api")!;
  assert.deepEqual([api.group, api.cwd], ["dev", `${t.dir}/a`]);
  assert.equal(api.env.PORT, "3000");
  assert.equal(api.env.API_TOKEN, "s3cret", "a secret is read again from the environment");
  assert.equal(t.runtime.view(t.runtime.store.find("worker")!.id)?.watcher, "ERROR");
  // The last screen, dimmed, above the new output.
  await waitForText(api, RESTORED_RULE);
  assert.deepEqual(api.visibleLines().slice(0, 2), ["$ npm start", "listening on :3000"]);
  // Never twice: again (all, or by name), a running name, an unknown one.
  const count = t.runtime.state.sessions.length;
  assert.deepEqual(restore.restore("all"), []);
  assert.deepEqual(restore.restore(["api", "already", "nope"]).map((o) => o.text), [
    "api: already running, not started again",
    "already: already running, not started again",
    "nope: no saved session of that name",
  ]);
  assert.equal(t.runtime.state.sessions.length, count);
  // The file keeps the secret by name only, and the restored sessions as they were saved.
  await until(() => t.read().length === 3, "the file rewritten");
  const file = Deno.readTextFileSync(t.file);
  assert.ok(!file.includes("s3cret"), "no secret value in the file");
  assert.deepEqual(t.read().find((s) => s.name === "api")?.env, [
    { name: "PORT", value: "3000" },
    { name: "API_TOKEN", secret: true },
  ]);
});

Deno.test("an agent session resumes its conversation with its manifest's command", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lzs-agent-" });
  const agent = `${dir}/fakeagent`;
  // It waits as `fakeagent-idle`, a name its manifest knows it by in the process table.
  await Deno.symlink("/bin/cat", `${dir}/fakeagent-idle`);
  await Deno.writeTextFile(
    agent,
    `#!/bin/sh\necho "fakeagent args: $*"\nexec ${dir}/fakeagent-idle\n`,
  );
  await Deno.chmod(agent, 0o755);
  // bash: its `-c` execs a lone command, so an agent run as the session's command is the
  // foreground process (dash keeps itself there: identity would see `sh`).
  await using t = await setup({
    shell: "/bin/bash",
    manifests: {
      fakeagent:
        `id: fakeagent\nidentity:\n  processes: [fakeagent, fakeagent-idle]\nresume:\n  command: "${agent} --resume {id}"\n`,
    },
  });
  await Deno.mkdir(`${t.dir}/state`);
  const conversation = {
    agent: "fakeagent",
    id: "4f2a-77",
    source: "hook Stop: session_id",
    cwd: null,
    transcript: null,
  };
  await Deno.writeTextFile(
    t.file,
    formatState([
      saved("typed", { cwd: t.dir, agent: "fakeagent", conversation }),
      saved("own", { cwd: t.dir, command: `${agent} --first`, agent: "fakeagent", conversation }),
      saved("fresh", { cwd: t.dir, command: `${agent} --first`, agent: "fakeagent" }),
    ], 1),
  );
  const restore = t.start();
  const texts = restore.restore("all").map((o) => o.text.replace(/ \(session-\d+\)$/, ""));
  assert.deepEqual(texts, [
    "typed: resumes fakeagent conversation 4f2a-77 (hook Stop: session_id)",
    "own: resumes fakeagent conversation 4f2a-77 (hook Stop: session_id)",
    "fresh: starts fakeagent fresh: no conversation id was seen",
  ]);
  const screen = (name: string) => t.runtime.store.find(name)!;
  await waitForText(screen("typed"), "fakeagent args: --resume 4f2a-77");
  await waitForText(screen("own"), "fakeagent args: --resume 4f2a-77");
  await waitForText(screen("fresh"), "fakeagent args: --first");
  // Resumed in the shell's foreground (typed at its prompt): identified as the agent again.
  const agentOf = (name: string) => t.runtime.view(screen(name).id)?.agent;
  await until(() => agentOf("typed") === "fakeagent", "the typed agent identified");
  await until(() => agentOf("own") === "fakeagent", "the agent command identified");
  // The file keeps each session's own command, not the resume line it runs now.
  await until(() => t.read().length === 3, "the file rewritten");
  assert.deepEqual(t.read().map((s) => s.command), [null, `${agent} --first`, `${agent} --first`]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a damaged state file is set aside in one line and its valid sessions are kept", async () => {
  await using t = await setup();
  await Deno.mkdir(`${t.dir}/state`);
  const whole = formatState([saved("good", { cwd: t.dir })], 1);
  await Deno.writeTextFile(t.file, whole + '{"name": "torn", "cw');
  await Deno.writeTextFile(`${t.file}.tmp-99999`, "a killed writer's temp file");
  const restore = t.start();
  assert.match(
    restore.problem!,
    new RegExp(
      `^The state file ${t.file} is damaged: line 3: not JSON; set aside as ` +
        `${t.file}\\.corrupt-[\\dT-]+Z; 1 session kept$`,
    ),
  );
  const names = [...Deno.readDirSync(`${t.dir}/state`)].map((e) => e.name);
  assert.ok(!names.some((n) => n.includes(".tmp-")), "temp files of a killed writer are removed");
  const aside = names.filter((n) => /^sessions-test\.jsonl\.corrupt-/.test(n));
  assert.equal(aside.length, 1);
  assert.equal(Deno.readTextFileSync(`${t.dir}/state/${aside[0]}`), whole + '{"name": "torn", "cw');
  assert.deepEqual(restore.offer().map((i) => i.name), ["good"]);
  // The new file holds the valid part, pending, until it is restored or dismissed.
  await until(() => t.read().length === 1, "the valid part written again");
  assert.deepEqual(t.read().map((s) => [s.name, s.pending]), [["good", true]]);
  assert.equal(restore.forget(["good"]), 1);
  await until(() => t.read().length === 0, "the dismissed session dropped");
});

Deno.test("a state file others can write, or another user's, is set aside unread", async () => {
  await using t = await setup();
  await Deno.mkdir(`${t.dir}/state`, { mode: 0o700 });
  const text = formatState([saved("planted", { cwd: t.dir, command: "touch pwned" })], 1);
  await Deno.writeTextFile(t.file, text);
  Deno.chmodSync(t.file, 0o662);
  const restore = t.start();
  assert.match(
    restore.problem!,
    new RegExp(
      `^Refusing the state file ${t.file}: mode 662 lets others write it; set aside as ` +
        `${t.file}\\.refused-[\\dT-]+Z; no session offered from it`,
    ),
  );
  assert.deepEqual(restore.offer(), []);
  const names = [...Deno.readDirSync(`${t.dir}/state`)].map((e) => e.name);
  assert.equal(names.filter((n) => n.includes(".refused-")).length, 1, "kept aside, not lost");
  if (Deno.uid() !== 0) return; // another owner needs root to make: untrusted() below covers it
  await restore[Symbol.asyncDispose]();
  await Deno.writeTextFile(t.file, text, { mode: 0o600 });
  Deno.chownSync(t.file, 65534, 65534);
  assert.match(t.start().problem!, /: owned by uid 65534, not 0; set aside as /);
});

Deno.test("untrusted(): a symlink, another owner, group or other write bits", () => {
  const file = { isSymlink: false, uid: 1000, mode: 0o100600 };
  assert.equal(untrusted(file, 1000), null);
  assert.equal(untrusted({ ...file, mode: 0o100644 }, 1000), null, "readable is not writable");
  assert.equal(untrusted({ ...file, uid: 0 }, 1000), "owned by uid 0, not 1000");
  assert.equal(untrusted({ ...file, mode: 0o100620 }, 1000), "mode 620 lets others write it");
  assert.equal(untrusted({ ...file, mode: 0o100602 }, 1000), "mode 602 lets others write it");
  assert.equal(untrusted({ ...file, isSymlink: true }, 1000), "it is a symlink");
  assert.equal(untrusted({ ...file, mode: 0o40777 }, 1000), "mode 777 lets others write it");
});

Deno.test("a session that ended a moment before the server stays in the file (a reboot's SIGTERMs)", async () => {
  await using t = await setup();
  const restore = t.start();
  const s = t.runtime.createSession({ name: "shell-at-reboot", command: "exec cat" });
  await until(() => t.read().length === 1, "saved");
  // init sends SIGTERM to every process at once: the session's child may end first.
  t.runtime.store.kill(s.id, "SIGTERM");
  await s.exited;
  await until(() => t.runtime.view(s.id)?.status === "exited", "exited in the state");
  // Then the server ends: its last write still lists the session.
  await restore[Symbol.asyncDispose]();
  assert.deepEqual(t.read().map((x) => x.name), ["shell-at-reboot"]);
});

Deno.test("pending resumes of the older limit-resumes file join their saved sessions, once", async () => {
  await using t = await setup();
  await Deno.mkdir(`${t.dir}/state`, { recursive: true, mode: 0o700 });
  const state = { phase: "waiting", limit: { resetsAt: 1, msg: "limit" }, dueAt: 2, done: [] };
  await Deno.writeTextFile(
    t.file,
    formatState([
      saved("cx", { agent: "codex", cwd: t.dir }),
      saved("other", { agent: "claude", cwd: t.dir }),
    ], 1),
  );
  const legacy = `${t.dir}/state/limit-resumes-test.json`;
  await Deno.writeTextFile(
    legacy,
    JSON.stringify({
      version: 1,
      sessions: { cx: { agent: "codex", state }, other: { agent: "codex", state } },
    }),
  );
  const restore = SessionRestore.start(t.runtime, {
    file: t.file,
    legacyResumes: legacy,
    writer: { delayMs: 20 },
  });
  // Matched by name and agent: `other` runs another agent.
  await until(() => {
    try {
      Deno.statSync(legacy);
      return false;
    } catch {
      return true;
    }
  }, "the older file removed");
  const kept = Object.fromEntries(t.read().map((s) => [s.name, s.limitResume]));
  assert.deepEqual(kept, { cx: state, other: null });
  assert.equal(restore.pendingCount, 2);
});

Deno.test("resume policies per session and per group are kept in the file and come back", async () => {
  await using t = await setup();
  await Deno.mkdir(`${t.dir}/state`, { recursive: true, mode: 0o700 });
  await Deno.writeTextFile(
    t.file,
    formatState([
      saved("a", { group: "g", cwd: t.dir, resumePolicy: "auto", groupResumePolicy: "ask" }),
      saved("b", { group: "g", cwd: t.dir, groupResumePolicy: "ask" }),
    ], 1),
  );
  const restore = t.start();
  // The group's is back before anything is restored.
  assert.equal(t.runtime.resumes.policies.group("g"), "ask");
  const [a] = restore.restore(["a"]);
  assert.deepEqual(t.runtime.resumes.policy(a!.id!), { policy: "auto", from: "session" });
  const b = restore.restore(["b"])[0]!.id!;
  assert.deepEqual(t.runtime.resumes.policy(b), { policy: "ask", from: "group" });
  t.runtime.resumes.setSessionPolicy(b, "off");
  t.runtime.resumes.setGroupPolicy("g", "auto");
  await until(() => {
    const byName = Object.fromEntries(t.read().map((s) => [s.name, s]));
    return byName.a?.resumePolicy === "auto" && byName.b?.resumePolicy === "off" &&
      byName.a.groupResumePolicy === "auto" && byName.b.groupResumePolicy === "auto";
  }, "the policies written");
});
