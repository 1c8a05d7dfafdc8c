import assert from "node:assert/strict";
import { encodeLine, HOOK_LINE_LIMIT, readLines, writeAll } from "./jsonl.ts";
import { hookMessage, sendHook } from "./hook_client.ts";
import type { HookEvent } from "./hook_mapping.ts";
import { HookServer } from "./hook_server.ts";
import { createInstanceDir, removeInstanceDir } from "./runtime_dir.ts";

async function setup() {
  const base = Deno.makeTempDirSync({ prefix: "lzs-hs-" });
  const dir = await createInstanceDir({ XDG_RUNTIME_DIR: base });
  const events: [string, HookEvent][] = [];
  const server = new HookServer(dir, { hook: (id, event) => events.push([id, event]) });
  return {
    server,
    events,
    async [Symbol.asyncDispose]() {
      await server[Symbol.asyncDispose]();
      removeInstanceDir(dir);
      Deno.removeSync(base, { recursive: true });
    },
  };
}

/** Sends raw lines on one connection; returns the reply lines until the server closes or `count`. */
async function exchange(path: string, data: string, count: number): Promise<string[]> {
  const conn = await Deno.connect({ transport: "unix", path });
  const replies: string[] = [];
  try {
    await writeAll(conn, new TextEncoder().encode(data));
    for await (const item of readLines(conn, HOOK_LINE_LIMIT)) {
      if (item.type === "line") replies.push(item.text);
      if (replies.length >= count) break;
    }
  } finally {
    try {
      conn.close();
    } catch { /* closed by the server */ }
  }
  return replies;
}

Deno.test("a hook event reaches the sink for its session and is acknowledged", async () => {
  await using t = await setup();
  const path = t.server.open("session-3");
  assert.ok(path.endsWith("/session-3.sock"));
  assert.equal(Deno.statSync(path).mode! & 0o777, 0o600);
  const result = await sendHook(
    path,
    hookMessage("blocked", null, {
      hook_event_name: "PermissionRequest",
      tool_name: "Bash",
    }),
    5000,
  );
  assert.equal(result, "acked");
  assert.deepEqual(t.events, [["session-3", {
    state: "blocked",
    kind: "permission",
    msg: "approve Bash",
    event: "PermissionRequest",
  }]]);
});

Deno.test("bad lines get an error reply and the sender is cut off; others are unaffected", async () => {
  await using t = await setup();
  const path = t.server.open("session-1");
  assert.deepEqual(await exchange(path, "not json\n", 5), [
    '{"v":1,"type":"error","error":"Not a JSON hook message"}',
  ]);
  const [bad] = await exchange(path, '{"v":1,"type":"hook","state":"sleepy"}\n', 5);
  assert.match(bad!, /field state/);
  const [big] = await exchange(path, "x".repeat(HOOK_LINE_LIMIT + 10) + "\n", 5);
  assert.match(big!, /Line over 65536 bytes/);
  const good = new TextDecoder().decode(encodeLine(hookMessage("working", null)));
  assert.deepEqual(await exchange(path, good + good, 2), [
    '{"v":1,"type":"ack"}',
    '{"v":1,"type":"ack"}',
  ]);
  assert.equal(t.events.length, 2);
});

Deno.test("closing a session's endpoint removes its socket", async () => {
  await using t = await setup();
  const path = t.server.open("session-2");
  await t.server.close("session-2");
  assert.throws(() => Deno.lstatSync(path), Deno.errors.NotFound);
  assert.equal(await sendHook(path, hookMessage("done", null), 1000), "no-socket");
});

Deno.test("sendHook() gives up on a listener that never answers", async () => {
  const base = Deno.makeTempDirSync({ prefix: "lzs-hung-" });
  const path = `${base}/hung.sock`;
  const listener = Deno.listen({ transport: "unix", path });
  try {
    assert.equal(await sendHook(path, hookMessage("working", null), 200), "timeout");
  } finally {
    listener.close();
    Deno.removeSync(base, { recursive: true });
  }
});
