/**
 * The control server survives bad clients (C1): non-JSON lines, lines over
 * the limit, unknown verbs, half-open connections, many concurrent
 * clients; replies are matched by id; sockets and directories are private.
 */

import assert from "node:assert/strict";
import { CONTROL_LINE_LIMIT, readLines, writeAll } from "../src/ipc/jsonl.ts";
import { startInstance } from "./control_helpers.ts";

async function connect(path: string) {
  const conn = await Deno.connect({ transport: "unix", path });
  const lines = readLines(conn, CONTROL_LINE_LIMIT);
  return {
    conn,
    send: (text: string) => writeAll(conn, new TextEncoder().encode(text)),
    async next(): Promise<Record<string, unknown>> {
      const item = await lines.next();
      if (item.done || item.value.type !== "line") throw new Error("no reply");
      return JSON.parse(item.value.text);
    },
    close() {
      try {
        conn.close();
      } catch { /* closed */ }
    },
  };
}

Deno.test("bad lines get error replies and the connection keeps working", async () => {
  await using t = await startInstance();
  const c = await connect(t.sockets.control!.path);
  try {
    await c.send("this is not json\n");
    assert.deepEqual(await c.next(), {
      id: null,
      ok: false,
      error: "Not a JSON control request",
    });
    await c.send('{"id":3,"verb":42}\n');
    assert.deepEqual(await c.next(), {
      id: 3,
      ok: false,
      error: "Bad control request field verb: Invalid input: expected string, received number",
    });
    await c.send("x".repeat(CONTROL_LINE_LIMIT + 100) + "\n");
    assert.match(String((await c.next()).error), /Line over 1048576 bytes/);
    await c.send('{"id":4,"verb":"reboot"}\n');
    assert.match(String((await c.next()).error), /Unknown verb: reboot/);
    await c.send('{"id":5,"verb":"list","args":{}}\n');
    assert.deepEqual(await c.next(), { id: 5, ok: true, result: { sessions: [] } });
  } finally {
    c.close();
  }
});

Deno.test("a pending wait does not hold up later requests on the same connection", async () => {
  await using t = await startInstance();
  await t.ok("new", { name: "s", command: "sleep 60" });
  const c = await connect(t.sockets.control!.path);
  try {
    await c.send(
      '{"id":1,"verb":"wait","args":{"target":"s","state":"done","timeout":1}}\n' +
        '{"id":2,"verb":"list"}\n',
    );
    const first = await c.next();
    assert.equal(first.id, 2);
    const second = await c.next();
    assert.equal(second.id, 1);
    assert.equal(second.ok, false);
  } finally {
    c.close();
  }
});

Deno.test("half-open and silent clients do not block 50 concurrent ones", async () => {
  await using t = await startInstance();
  await t.ok("new", { name: "s", command: "sleep 60" });
  const path = t.sockets.control!.path;
  const silent = await connect(path);
  const partial = await connect(path);
  await partial.send('{"id":1,"verb":"li');
  const halfClosed = await connect(path);
  await halfClosed.send('{"id":9,"verb":"list"}\n');
  await halfClosed.conn.closeWrite();
  try {
    assert.equal((await halfClosed.next()).id, 9);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => t.call("list", {}, 60_000).then((r) => [i, r.ok])),
    );
    assert.equal(results.filter(([, ok]) => ok).length, 50);
  } finally {
    silent.close();
    partial.close();
    halfClosed.close();
  }
});

Deno.test("the instance directory is 0700, its sockets 0600, all removed on dispose", async () => {
  const t = await startInstance();
  let dir: string;
  try {
    await t.ok("new", { name: "s", command: "sleep 60" });
    dir = t.sockets.dir;
    assert.equal(Deno.statSync(dir).mode! & 0o777, 0o700);
    assert.equal(Deno.statSync(`${dir}/..`).mode! & 0o777, 0o700);
    assert.equal(Deno.statSync(t.sockets.control!.path).mode! & 0o777, 0o600);
    assert.equal(Deno.statSync(`${dir}/session-1.sock`).mode! & 0o777, 0o600);
    assert.ok(Deno.lstatSync(`${dir}/session-1.sock`).isSocket);
  } finally {
    await t.runtime[Symbol.asyncDispose]();
  }
  assert.throws(() => Deno.statSync(dir), Deno.errors.NotFound);
  Deno.removeSync(t.base, { recursive: true });
});

Deno.test("with control off there is no control socket, and sessions get no LAZYSHELL_CONTROL", async () => {
  await using t = await startInstance({ control: false });
  assert.equal(t.sockets.control, null);
  const session = t.runtime.createSession({ command: "sleep 60" });
  assert.equal(session.env.LAZYSHELL_CONTROL, undefined);
  assert.match(session.env.LAZYSHELL_SOCK!, /session-1\.sock$/);
});

Deno.test("Claude Code launches get lazyshell's hooks with --settings when inject_hooks is on", async () => {
  await using t = await startInstance({
    extraConfig: "agents:\n  claude:\n    inject_hooks: true\n",
  });
  const bin = `${t.base}/bin`;
  Deno.mkdirSync(bin);
  // A stand-in `claude` that prints its arguments and the settings file it was given.
  Deno.writeTextFileSync(
    `${bin}/claude`,
    '#!/bin/sh\necho "ARGS: $*"\nwhile [ "$1" != "--settings" ]; do shift; done\ncat "$2"\nsleep 60\n',
    { mode: 0o755 },
  );
  const session = t.runtime.createSession({
    command: `${bin}/claude --model x`,
    env: { PATH: `${bin}:${Deno.env.get("PATH")}` },
  });
  assert.equal(session.command, `${bin}/claude --model x`);
  const { waitForText } = await import("../src/session/test_util.ts");
  await waitForText(session, "Stop", 15_000);
  const text = session.terminal.tail(200).lines.join("\n");
  assert.match(text, /ARGS: --model x --settings .*claude-settings\.json/);
  assert.match(text, /hook done/);
  assert.match(text, /PermissionRequest/);
  const other = t.runtime.createSession({ command: "sleep 60" });
  assert.equal(other.command, "sleep 60");
});
