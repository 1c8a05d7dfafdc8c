/**
 * The light paths (the client attaching, `lazyshell hook`, `ctl`) never read the
 * global setTimeout or setInterval: in Deno 2.9 that first read loads
 * Node's timers, 13–15 ms of a ~70 ms process (src/util/async.ts;
 * docs/architecture.md, "Start-up"). Each run has a `--preload` probe that
 * writes down every such read (tests/testdata/timer_probe.ts).
 */

import assert from "node:assert/strict";
import type { HookEvent } from "../src/ipc/hook_mapping.ts";
import { HookServer } from "../src/ipc/hook_server.ts";
import { createInstanceDir, removeInstanceDir } from "../src/ipc/runtime_dir.ts";
import { waitForText } from "../src/session/test_util.ts";
import { lab } from "./e2e_lab.ts";
import { startServe } from "../tools/abuse/server.ts";

const PROBE = new URL("./testdata/timer_probe.ts", import.meta.url).pathname;
const MAIN = new URL("../main.ts", import.meta.url).pathname;
const WAIT = 30_000;

function readProbe(file: string): string {
  try {
    return Deno.readTextFileSync(file);
  } catch {
    return "";
  }
}

Deno.test("the probe sees a program that reads the global setTimeout", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lzs-timer-probe-" });
  try {
    const script = `${dir}/uses_timer.ts`;
    Deno.writeTextFileSync(script, "setTimeout(() => {}, 1);\n");
    const probe = `${dir}/probe`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", "--preload", PROBE, script],
      env: { TIMER_PROBE: probe },
    }).output();
    assert.ok(out.success);
    assert.match(readProbe(probe), /^setTimeout .*uses_timer\.ts/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("lazyshell hook reads no global timer (stdin metadata, a socket that acknowledges)", async () => {
  const base = Deno.makeTempDirSync({ prefix: "lzs-timer-hook-" });
  const dir = await createInstanceDir({ XDG_RUNTIME_DIR: base });
  const events: HookEvent[] = [];
  const server = new HookServer(dir, { hook: (_id, event) => events.push(event) });
  try {
    const socket = server.open("session-1");
    const probe = `${base}/probe`;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", "--preload", PROBE, MAIN, "hook", "blocked"],
      env: { TIMER_PROBE: probe, LAZYSHELL_SOCK: socket },
      stdin: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode('{"hook_event_name":"Notification"}'));
    await writer.close();
    const out = await child.output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    assert.equal(events.length, 1, "the hook reached the socket");
    assert.equal(readProbe(probe), "");
  } finally {
    await server[Symbol.asyncDispose]();
    removeInstanceDir(dir);
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("attaching to a running server reads no global timer", async () => {
  await using l = lab("lazyshell-timers-");
  const first = l.client(100, 30); // starts the server
  await waitForText(first, "No sessions", WAIT);
  first.write("d");
  await first.exited;
  const probe = `${l.dir}/probe`;
  const client = l.store.create({
    command: `exec env TIMER_PROBE=${probe} ${Deno.execPath()} run -A --quiet --preload ${PROBE} ` +
      `${MAIN} attach`,
    cols: 100,
    rows: 30,
  });
  await waitForText(client, "No sessions", WAIT);
  client.write("d");
  await client.exited;
  assert.equal(client.exitCode, 0);
  assert.equal(readProbe(probe), "");
});

Deno.test("lazyshell ctl reads no global timer", async () => {
  await using server = await startServe();
  const probe = `${server.base}/probe`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", "--preload", PROBE, MAIN, "ctl", "list"],
    env: { ...server.env, TIMER_PROBE: probe, LAZYSHELL_CONTROL: server.socket },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.match(new TextDecoder().decode(out.stdout), /No sessions/);
  assert.equal(readProbe(probe), "");
});
