/**
 * The server's watched hosts follow config `hosts:` through a reload (src/server/hosts.ts): none,
 * then one (its list in the table), then none again (its ssh ended). ssh is a stand-in script
 * named by `ssh.command` (real child processes; the real sshd path is tests/remote_hosts_test.ts).
 */

import assert from "node:assert/strict";
import { Runtime } from "../runtime/runtime.ts";
import { TEST_SHELL, testEnv } from "../session/test_util.ts";
import { reload } from "./reload.ts";
import { WatchedHosts } from "./hosts.ts";

const GREETING = 'LAZYSHELL-BRIDGE {"bridge":1,"version":"0.1.0","ok":true,"cwd":"/"}';
const LIST =
  '{"id":1,"ok":true,"result":{"digest":"d1","version":1,"sessions":[{"id":"session-1",' +
  '"name":"api","group":null,"status":"running","exitCode":null,"signal":null,"agent":null,' +
  '"state":null,"kind":null,"msg":null,"seq":null,"since":null,"resetsAt":null,"prompt":null}]}}';

async function until(what: string, ok: () => boolean, ms = 20_000): Promise<void> {
  const end = performance.now() + ms;
  while (!ok()) {
    if (performance.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

Deno.test("watched hosts follow hosts: through a reload: none, one, none", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lzs-hosts-" });
  Deno.mkdirSync(`${dir}/config/lazyshell/agents`, { recursive: true });
  Deno.mkdirSync(`${dir}/run`, { mode: 0o700 });
  const ssh = `${dir}/fake-ssh`;
  const pids = `${dir}/pids`;
  // Greets, lists one session, then holds every watch until its stdin ends.
  Deno.writeTextFileSync(
    ssh,
    `#!/bin/sh\necho $$ >> '${pids}'\necho '${GREETING}'\nread -r l\necho '${LIST}'\n` +
      `while read -r l; do :; done\n`,
  );
  Deno.chmodSync(ssh, 0o755);
  const file = `${dir}/config/lazyshell/config.yml`;
  const write = (hosts: string) =>
    Deno.writeTextFileSync(
      file,
      `shell: ${TEST_SHELL}\nssh:\n  command: ${ssh}\nhosts: ${hosts}\n`,
    );
  write("[]");
  const env = testEnv({
    XDG_CONFIG_HOME: `${dir}/config`,
    XDG_DATA_HOME: `${dir}/data`,
    XDG_RUNTIME_DIR: `${dir}/run`,
  });
  const runtime = new Runtime({ env, cwd: dir });
  const hosts = new WatchedHosts(runtime, "0.1.0", () => {});
  try {
    let changes = 0;
    using _sub = hosts.subscribe(() => changes++);
    assert.deepEqual(hosts.table(), []);
    write("[{ name: box, destination: box }]");
    assert.equal((await reload(runtime, null)).ok, true);
    await until("box up", () => hosts.table()[0]?.phase === "up");
    assert.deepEqual(hosts.table()[0]!.sessions.map((s) => s.name), ["api"]);
    assert.ok(changes > 0);
    const pid = Number(Deno.readTextFileSync(pids).trim());
    write("[]");
    assert.equal((await reload(runtime, null)).ok, true);
    assert.deepEqual(hosts.table(), []);
    // Its ssh (the stand-in) ended with the watching: its stdin closed.
    await until("the stand-in ssh gone", () => {
      try {
        return Deno.readTextFileSync(`/proc/${pid}/stat`).includes(") Z");
      } catch {
        return true;
      }
    });
  } finally {
    await hosts[Symbol.asyncDispose]();
    await runtime[Symbol.asyncDispose]();
    Deno.removeSync(dir, { recursive: true });
  }
});
