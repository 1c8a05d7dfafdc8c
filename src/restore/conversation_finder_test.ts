/**
 * The finder with a real runtime and real PTYs: a fake `claude` (a script,
 * so its process is named `claude`) writes its transcript where Claude Code
 * does, in the runtime's temp HOME. The end-to-end run with a real server,
 * kill -9 and `lazyshell restore` is tests/restore_resume_e2e_test.ts.
 */

import assert from "node:assert/strict";
import { parseConfig } from "../config/config.ts";
import { Runtime } from "../runtime/runtime.ts";
import { testEnv, waitFor } from "../session/test_util.ts";
import { SessionRestore } from "./restore.ts";

const FAKE_CLAUDE = `#!/bin/sh
id=$(cat /proc/sys/kernel/random/uuid)
dir="$HOME/.claude/projects/$(pwd | sed 's/[^A-Za-z0-9]/-/g')"
echo "fake claude"
while read -r line; do
  mkdir -p "$dir"
  printf '{"type":"user","timestamp":"%s","cwd":"%s","sessionId":"%s"}\\n' \\
    "$(date -u +%Y-%m-%dT%H:%M:%S.000Z)" "$(pwd)" "$id" >> "$dir/$id.jsonl"
  echo "wrote $id"
done
`;

async function setup() {
  const dir = await Deno.makeTempDir({ prefix: "lzs-finder-" });
  await Deno.mkdir(`${dir}/bin`);
  await Deno.writeTextFile(`${dir}/bin/claude`, FAKE_CLAUDE, { mode: 0o755 });
  await Deno.mkdir(`${dir}/app`);
  const runtime = new Runtime({
    env: testEnv({ HOME: dir, PATH: `${dir}/bin:${Deno.env.get("PATH")}` }),
    // bash runs a `-c` command in its own place: the fake is the session's foreground process.
    config: parseConfig("shell: /bin/bash\n", "config.yml"),
    cwd: `${dir}/app`,
  });
  // Timers far away: each look is the test's own `scan()`.
  const restore = SessionRestore.start(runtime, {
    file: `${dir}/state/sessions.jsonl`,
    finder: { delayMs: 600_000, intervalMs: 600_000 },
  });
  return {
    dir,
    runtime,
    restore,
    async [Symbol.asyncDispose]() {
      await restore[Symbol.asyncDispose]();
      await runtime[Symbol.asyncDispose]();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** A session running the fake, identified, that wrote its transcript: its id. */
async function fakeThatWrote(t: Awaited<ReturnType<typeof setup>>, name: string) {
  const session = t.runtime.createSession({ name, command: "claude", cwd: `${t.dir}/app` });
  await waitFor(session, () => t.runtime.view(session.id)?.agent === "claude", 15_000, "claude");
  session.write("hello\r");
  let id = "";
  await waitFor(
    session,
    () => {
      id = /wrote (\S+)/.exec(session.visibleLines().join("\n"))?.[1] ?? "";
      return id !== "";
    },
    15_000,
    "the transcript",
  );
  return { session, id };
}

Deno.test("finder: a fake claude's transcript becomes the session's conversation", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using t = await setup();
  const { session, id } = await fakeThatWrote(t, "a");
  assert.equal(t.runtime.view(session.id)?.conversation, null);
  await t.restore.finder.scan();
  const c = t.runtime.view(session.id)?.conversation;
  const transcript = `${t.dir}/.claude/projects/${
    t.dir.replace(/[^A-Za-z0-9]/g, "-")
  }-app/${id}.jsonl`;
  assert.deepEqual(c, {
    agent: "claude",
    id,
    source: `claude transcript ~${transcript.slice(t.dir.length)}`,
    cwd: `${t.dir}/app`,
    transcript,
  });
});

Deno.test("finder: an id a hook named is never replaced by the store's", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using t = await setup();
  const { session } = await fakeThatWrote(t, "a");
  const hook = {
    id: "e9c316ae-92b1-4211-89a8-247c5ceb4c3d",
    source: "hook Stop: session_id",
    cwd: null,
    transcript: null,
  };
  t.runtime.noteConversation(session.id, hook);
  await t.restore.finder.scan();
  assert.deepEqual(t.runtime.view(session.id)?.conversation, { ...hook, agent: "claude" });
});
