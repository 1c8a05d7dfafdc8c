/**
 * HostWatcher with a stand-in for ssh (a script named as the ssh command: real child processes,
 * no sshd): a host that answers garbage after its greeting, one whose ssh fails, one that
 * answers — each in its own state, the failures retried with backoff, none reaching the others or
 * the caller. The real sshd path is tests/remote_hosts_test.ts.
 */

import assert from "node:assert/strict";
import { HostWatcher } from "./host_watcher.ts";
import type { HostView } from "../model/hosts.ts";
import { parseDestination } from "./ssh_command.ts";

const GREETING = 'LAZYSHELL-BRIDGE {"bridge":1,"version":"0.1.0","ok":true,"cwd":"/"}';

/** A fake ssh: prints the greeting, then runs `then` (sh) with the request lines on stdin. */
function fakeSsh(dir: string, name: string, body: string): string {
  const path = `${dir}/${name}`;
  Deno.writeTextFileSync(path, `#!/bin/sh\n${body}\n`);
  Deno.chmodSync(path, 0o755);
  return path;
}

async function until(w: HostWatcher, ok: (t: readonly HostView[]) => boolean, ms = 20_000) {
  const end = performance.now() + ms;
  while (!ok(w.table())) {
    if (performance.now() > end) {
      throw new Error(`not within ${ms} ms: ${JSON.stringify(w.table())}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

Deno.test("host watcher: garbage, a failing ssh and a good host each in their own state", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "lzs-watch-" });
  try {
    const garbage = fakeSsh(dir, "garbage", `echo '${GREETING}'; read line; echo 'not json'`);
    const refused = fakeSsh(
      dir,
      "refused",
      `echo 'ssh: connect: Connection refused' >&2; exit 255`,
    );
    // A host that lists one session, then holds every watch (as a list that never changes).
    const good = fakeSsh(
      dir,
      "good",
      `echo '${GREETING}'\nread line\n` +
        `echo '{"id":1,"ok":true,"result":{"digest":"d1","sessions":[{"id":"session-1","name":"api","group":null,"status":"running","exitCode":null,"signal":null,"agent":null,"state":null,"kind":null,"msg":null,"seq":null,"since":null,"resetsAt":null,"prompt":null}]}}'\n` +
        // Its later watches are held (read, never answered) until the watcher goes.
        `while read -r l; do :; done`,
    );
    const ssh: Record<string, string> = { one: garbage, two: refused, three: good };
    const changes: string[] = [];
    const watcher = new HostWatcher({
      hosts: ["one", "two", "three"].map((name) => ({ name, destination: name, command: null })),
      target: (h) =>
        Promise.resolve({
          ssh: [ssh[h.name]!],
          dest: parseDestination(h.destination),
          remote: "lazyshell",
          server: null,
          version: "0.1.0",
        }),
      random: () => 0,
    });
    const sub = watcher.subscribe(() => {
      changes.push(watcher.table().map((h) => h.phase).join(","));
      throw new Error("a listener that throws"); // contained: the watching goes on
    });
    await until(watcher, (t) => t[0]!.tries >= 2 && t[1]!.tries >= 2 && t[2]!.phase === "up");
    const [one, two, three] = watcher.table();
    assert.equal(one!.phase === "down" || one!.phase === "connecting", true);
    assert.match(one!.error!, /not JSON/);
    assert.match(two!.error!, /^ssh to two failed: ssh: connect: Connection refused$/);
    assert.deepEqual(three!.sessions.map((s) => s.name), ["api"]);
    // The second try came after 1 s (random 0: no jitter), not at once.
    assert.ok(changes.length > 0);
    await assert.rejects(watcher.request("two", "list", {}, 1000), /two is (down|connecting)/);
    sub[Symbol.dispose]();
    const t0 = performance.now();
    await watcher[Symbol.asyncDispose]();
    assert.ok(performance.now() - t0 < 5000, "disposal ends the ssh children");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
