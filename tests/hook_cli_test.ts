/**
 * `lazyshell hook` as agents run it: a real subprocess, a real socket.
 * Whatever happens it exits 0 and prints nothing on stdout (docs/hooks.md).
 */

import assert from "node:assert/strict";
import type { HookEvent } from "../src/ipc/hook_mapping.ts";
import { HookServer } from "../src/ipc/hook_server.ts";
import { createInstanceDir, removeInstanceDir } from "../src/ipc/runtime_dir.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const FIXTURES = new URL("../fixtures/hooks/", import.meta.url);

interface Run {
  code: number;
  stdout: string;
}

async function hook(
  args: string[],
  options: { sock?: string; stdin?: string; perms?: string[] } = {},
): Promise<Run> {
  const env: Record<string, string> = { NO_COLOR: "1" };
  if (options.sock !== undefined) env.LAZYSHELL_SOCK = options.sock;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...(options.perms ?? ["-A"]), "--no-prompt", "--quiet", MAIN, "hook", ...args],
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  try {
    if (options.stdin !== undefined) await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  } catch { /* the hook may exit before reading */ }
  const out = await child.output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
}

async function listening() {
  const base = Deno.makeTempDirSync({ prefix: "lzs-cli-" });
  const dir = await createInstanceDir({ XDG_RUNTIME_DIR: base });
  const events: HookEvent[] = [];
  const server = new HookServer(dir, { hook: (_id, event) => events.push(event) });
  const sock = server.open("session-1");
  return {
    sock,
    events,
    base,
    async [Symbol.asyncDispose]() {
      await server[Symbol.asyncDispose]();
      removeInstanceDir(dir);
      Deno.removeSync(base, { recursive: true });
    },
  };
}

function claudePayload(event: string): string {
  const line = Deno.readTextFileSync(new URL("claude-tool.hooks.jsonl", FIXTURES)).split("\n")
    .find((l) => l.includes(`"event":"${event}"`))!;
  return JSON.stringify(JSON.parse(line).payload);
}

Deno.test("hook sends one event with the stdin metadata, prints nothing, exits 0", async () => {
  await using t = await listening();
  const run = await hook(["blocked", "--kind", "permission"], {
    sock: t.sock,
    stdin: claudePayload("PermissionRequest"),
  });
  assert.deepEqual(run, { code: 0, stdout: "" });
  assert.deepEqual(t.events, [{
    state: "blocked",
    kind: "permission",
    msg: "approve Bash",
    event: "PermissionRequest",
  }]);
});

Deno.test("hook with garbage on stdin still reports the state it names", async () => {
  await using t = await listening();
  assert.deepEqual(await hook(["working"], { sock: t.sock, stdin: "\x00{{not json" }), {
    code: 0,
    stdout: "",
  });
  assert.deepEqual(t.events.map((e) => e.state), ["working"]);
});

Deno.test("hook done with Codex's JSON argument skips the hidden title request", async () => {
  await using t = await listening();
  const notify = Deno.readTextFileSync(new URL("codex-tool.notify.jsonl", FIXTURES)).trim()
    .split("\n").map((l) => JSON.parse(l).argv[0] as string);
  for (const json of notify) {
    assert.deepEqual(await hook(["done", json], { sock: t.sock }), { code: 0, stdout: "" });
  }
  assert.deepEqual(t.events.map((e) => [e.state, e.event]), [["done", "agent-turn-complete"]]);
});

Deno.test("hook --help prints its usage, sends nothing, exits 0", async () => {
  await using t = await listening();
  for (const flag of ["--help", "-h"]) {
    const run = await hook([flag], { sock: t.sock });
    assert.equal(run.code, 0);
    assert.match(run.stdout, /^Usage: lazyshell hook \[options\] <state> \[json\]\n/);
    assert.match(run.stdout, /--kind <kind>/);
  }
  assert.deepEqual(t.events, []);
});

Deno.test("hook exits 0 on bad arguments and sends nothing", async () => {
  await using t = await listening();
  for (const args of [[], ["sleepy"], ["working", "--kind", "nope"], ["blocked", "--kind"]]) {
    assert.deepEqual(await hook(args, { sock: t.sock }), { code: 0, stdout: "" }, String(args));
  }
  assert.deepEqual(t.events, []);
});

Deno.test("hook exits 0 with no socket, a missing one, a refused one or a hung one", async () => {
  await using t = await listening();
  assert.deepEqual(await hook(["working"]), { code: 0, stdout: "" });
  assert.deepEqual(await hook(["working"], { sock: `${t.base}/missing.sock` }), {
    code: 0,
    stdout: "",
  });
  const stalePath = `${t.base}/stale.sock`;
  const stale = Deno.listen({ transport: "unix", path: stalePath });
  Deno.renameSync(stalePath, `${stalePath}.x`);
  stale.close();
  Deno.renameSync(`${stalePath}.x`, stalePath);
  assert.deepEqual(await hook(["done"], { sock: stalePath }), { code: 0, stdout: "" });
  const hungPath = `${t.base}/hung.sock`;
  const hung = Deno.listen({ transport: "unix", path: hungPath });
  try {
    assert.deepEqual(await hook(["done"], { sock: hungPath, stdin: "{}" }), {
      code: 0,
      stdout: "",
    });
  } finally {
    hung.close();
  }
});

Deno.test("hook exits 0 without permissions to read the env, or to connect", async () => {
  await using t = await listening();
  assert.deepEqual(await hook(["working"], { sock: t.sock, perms: [] }), { code: 0, stdout: "" });
  assert.deepEqual(await hook(["working"], { sock: t.sock, perms: ["--allow-env"] }), {
    code: 0,
    stdout: "",
  });
  assert.deepEqual(t.events, []);
});

Deno.test("hook with stdin closed still reports the state", async () => {
  await using t = await listening();
  const out = await new Deno.Command("/bin/sh", {
    args: ["-c", `exec "$0" run -A --quiet "$1" hook done <&-`, Deno.execPath(), MAIN],
    env: { LAZYSHELL_SOCK: t.sock },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.deepEqual([out.code, new TextDecoder().decode(out.stdout)], [0, ""]);
  assert.deepEqual(t.events.map((e) => e.state), ["done"]);
});
