/**
 * `lazyshell init --agents` prints integrations that work: each printed
 * command is run as the agent would run it and must reach a real hook
 * socket; the opencode plugin is fed the captured bus events (H2).
 */

import assert from "node:assert/strict";
import type { HookEvent } from "../src/ipc/hook_mapping.ts";
import type { ConversationEvidence } from "../src/ipc/conversation.ts";
import { HookServer } from "../src/ipc/hook_server.ts";
import { createInstanceDir, removeInstanceDir } from "../src/ipc/runtime_dir.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const FIXTURES = new URL("../fixtures/hooks/", import.meta.url);
const decoder = new TextDecoder();

async function init(...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", MAIN, "init", ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

async function listening() {
  const base = Deno.makeTempDirSync({ prefix: "lzs-init-" });
  const dir = await createInstanceDir({ XDG_RUNTIME_DIR: base });
  const events: HookEvent[] = [];
  const conversations: ConversationEvidence[] = [];
  const server = new HookServer(dir, {
    hook: (_id, event) => events.push(event),
    conversation: (_id, c) => conversations.push(c),
  });
  return {
    base,
    sock: server.open("session-1"),
    events,
    /** The conversation ids the messages named, without repeats, with their source. */
    conversations: () => [...new Set(conversations.map((c) => `${c.id} ${c.source}`))],
    async [Symbol.asyncDispose]() {
      await server[Symbol.asyncDispose]();
      removeInstanceDir(dir);
      Deno.removeSync(base, { recursive: true });
    },
  };
}

async function run(argv: string[], env: Record<string, string>, stdin = "") {
  const child = new Deno.Command(argv[0]!, {
    args: argv.slice(1),
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin)).catch(() => {});
  await writer.close().catch(() => {});
  const out = await child.output();
  return { code: out.code, stdout: decoder.decode(out.stdout) };
}

Deno.test("the printed Claude hooks run lazyshell by absolute path and reach the session", async () => {
  await using t = await listening();
  const printed = await init("--agents", "claude");
  assert.equal(printed.code, 0, printed.stderr);
  const settings = JSON.parse(printed.stdout);
  assert.deepEqual(Object.keys(settings.hooks), [
    "UserPromptSubmit",
    "PermissionRequest",
    "PostToolUse",
    "Notification",
    "Stop",
    "StopFailure",
  ]);
  const lines = Deno.readTextFileSync(new URL("claude-tool.hooks.jsonl", FIXTURES)).trim()
    .split("\n").map((l) => JSON.parse(l));
  for (const line of lines) {
    const entry = settings.hooks[line.event];
    if (!entry) continue;
    const command: string = entry[0].hooks[0].command;
    assert.ok(command.startsWith("/"), command);
    // Claude Code runs hook commands through a shell, payload on stdin.
    const result = await run(
      ["/bin/sh", "-c", command],
      { LAZYSHELL_SOCK: t.sock },
      JSON.stringify(line.payload),
    );
    assert.deepEqual(result, { code: 0, stdout: "" }, command);
  }
  assert.deepEqual(t.events.map((e) => [e.event, e.state, e.kind]), [
    ["UserPromptSubmit", "working", null],
    ["PermissionRequest", "blocked", "permission"],
    ["Notification", "blocked", "permission"],
    ["PostToolUse", "working", null],
    ["Stop", "done", null],
  ]);
  // Every hook names the conversation `claude --resume` takes (docs/hooks.md).
  const id = "e9c316ae-92b1-4211-89a8-247c5ceb4c3d";
  assert.deepEqual(t.conversations(), [
    `${id} hook UserPromptSubmit: session_id`,
    `${id} hook PermissionRequest: session_id`,
    `${id} hook Notification: session_id`,
    `${id} hook PostToolUse: session_id`,
    `${id} hook Stop: session_id`,
  ]);
});

Deno.test("the printed Claude StopFailure hook reports a failed turn with why", async () => {
  await using t = await listening();
  const settings = JSON.parse((await init("--agents", "claude")).stdout);
  const failure = Deno.readTextFileSync(new URL("claude-fail-rate.hooks.jsonl", FIXTURES)).trim()
    .split("\n").map((l) => JSON.parse(l)).find((l) => l.event === "StopFailure");
  const command: string = settings.hooks.StopFailure[0].hooks[0].command;
  const result = await run(
    ["/bin/sh", "-c", command],
    { LAZYSHELL_SOCK: t.sock },
    JSON.stringify(failure.payload),
  );
  assert.deepEqual(result, { code: 0, stdout: "" }, command);
  assert.deepEqual(t.events.map((e) => [e.event, e.state, e.kind]), [
    ["StopFailure", "error", "rate_limit"],
  ]);
});

Deno.test("the printed Codex notify line gets done for the real turn only", async () => {
  await using t = await listening();
  const printed = await init("--agents", "codex");
  const match = /^notify = (\[.*\])$/.exec(printed.stdout.trim());
  assert.ok(match, printed.stdout);
  const argv: string[] = JSON.parse(match[1]!);
  const notify = Deno.readTextFileSync(new URL("codex-tool.notify.jsonl", FIXTURES)).trim()
    .split("\n").map((l) => JSON.parse(l).argv[0] as string);
  for (const json of notify) {
    // Codex appends one JSON argument; stdin is whatever its daemon has (here: empty, open).
    assert.deepEqual(await run([...argv, json], { LAZYSHELL_SOCK: t.sock }), {
      code: 0,
      stdout: "",
    });
  }
  assert.deepEqual(t.events.map((e) => [e.event, e.state]), [["agent-turn-complete", "done"]]);
  // The real turn's thread, not the hidden title request's.
  assert.deepEqual(t.conversations(), [
    "01a227d2-e0ff-7e10-9f9c-5bdcfb8da26e hook agent-turn-complete: thread-id",
  ]);
});

Deno.test("the opencode plugin turns captured bus events into states", async () => {
  await using t = await listening();
  const printed = await init("--agents", "opencode");
  const plugin = `${t.base}/lazyshell.js`;
  Deno.writeTextFileSync(plugin, printed.stdout);
  const driver = `${t.base}/driver.mjs`;
  // Loads the plugin like opencode does and feeds it the captured events in order.
  Deno.writeTextFileSync(
    driver,
    `import { Lazyshell } from ${JSON.stringify(plugin)};
import { readFileSync } from "node:fs";
const hooks = await Lazyshell({});
for (const file of process.argv.slice(2)) {
  for (const line of readFileSync(file, "utf8").trim().split("\\n")) {
    const { event, payload } = JSON.parse(line);
    await hooks.event({ event: { type: event, properties: payload } });
  }
}
await new Promise((r) => setTimeout(r, 1000));
`,
  );
  const files = [
    "opencode-tool",
    "opencode-interrupt",
    "opencode-deny",
    "opencode-fail-rate",
    "opencode-fail-auth",
    "opencode-fail-cut",
  ].map((n) => new URL(`${n}.plugin-events.jsonl`, FIXTURES).pathname);
  const result = await run([Deno.execPath(), "run", "-A", "--quiet", driver, ...files], {
    LAZYSHELL_SOCK: t.sock,
  });
  assert.equal(result.code, 0);
  assert.deepEqual(t.events.map((e) => [e.state, e.kind]), [
    ["working", null],
    ["blocked", "permission"],
    ["working", null],
    ["done", null],
    ["working", null],
    ["idle", null],
    // opencode-deny (real opencode under lazyshell, tools/live): Esc on the permission prompt
    // is `permission.replied` reply=reject, then `session.idle`: idle, never a "done".
    ["working", null],
    ["blocked", "permission"],
    ["idle", null],
    // opencode-fail-rate: five retries (`session.status` retry: still working), then
    // `session.error` APIError 429 and `session.idle`: error, never done.
    ["working", null],
    ["error", "rate_limit"],
    // opencode-fail-auth: `session.error` APIError 401 at once.
    ["working", null],
    ["error", "auth"],
    // opencode-fail-cut: five retries of a dropped connection, then `session.error`.
    ["working", null],
    ["error", "connection"],
  ]);
  assert.deepEqual(t.events.filter((e) => e.state === "error").map((e) => e.msg), [
    "Rate limit reached for mock-model on requests per min (RPM): Limit 3, Used 3, Requested 1.",
    "Incorrect API key provided: lab-dumm***-key.",
    "Connection reset by server",
  ]);
  // Each capture is one opencode session: its id comes with the first state it reports.
  assert.deepEqual(t.conversations().map((c) => c.replace(/^ses_\w+/, "ses")), [
    "ses hook opencode:session.status: session_id",
    "ses hook opencode:permission.asked: session_id",
    "ses hook opencode:permission.replied: session_id",
    "ses hook opencode:session.idle: session_id",
    "ses hook opencode:session.status: session_id",
    "ses hook opencode:session.error: session_id",
    "ses hook opencode:session.status: session_id",
    "ses hook opencode:permission.asked: session_id",
    "ses hook opencode:permission.replied: session_id",
    // The failed turns (fail-rate, fail-auth, fail-cut): the retry, then the error.
    ...Array(3).fill([
      "ses hook opencode:session.status: session_id",
      "ses hook opencode:session.error: session_id",
    ]).flat(),
  ]);
});

Deno.test("init --agents prints all three; an unknown agent is one clear error", async () => {
  const all = await init("--agents");
  assert.equal(all.code, 0);
  assert.match(all.stdout, /# Claude Code:[\s\S]*# Codex:[\s\S]*notify = \[[\s\S]*# opencode:/);
  const bad = await init("--agents", "vim");
  assert.equal(bad.code, 2);
  assert.equal(bad.stderr, "lazyshell: Unknown agent: vim (expected claude, codex, opencode)\n");
});
