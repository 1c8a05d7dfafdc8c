/**
 * Hosts watched by the lasting server (docs/remote.md, "Hosts watched")
 * against a real sshd (src/remote/test_util.ts): the server follows every
 * `hosts:` entry over one ssh connection each; `ctl list --all-hosts`
 * prints its table; a host whose sshd stops is shown down with its next
 * try, then up again with its sessions; a blocked remote agent is notified
 * once through the local notifier, with the host's name, no client attached.
 */

import assert from "node:assert/strict";
import { sshdMissing, startSshd } from "../src/remote/test_util.ts";
import { TEST_SHELL } from "../src/session/test_util.ts";
import { spawnServe } from "../tools/abuse/server.ts";
import { localEnv, lz } from "./remote_helpers.ts";

const missing = sshdMissing();
if (missing) console.log(`tests/remote_hosts_test.ts: ${missing}`);

const remoteConfig = `control:\n  enabled: true\nshell: ${TEST_SHELL}\n`;

interface Row {
  host: string;
  up: boolean;
  phase?: string;
  error?: string;
  retryAt?: string;
  sessions?: { name: string; state: string | null }[];
}

/** `ctl list --all-hosts --json` until `ok` holds of its hosts (polled; the table is the server's). */
async function until(
  env: Record<string, string>,
  ok: (rows: Row[]) => boolean,
  what: string,
  ms = 60_000,
): Promise<Row[]> {
  const end = performance.now() + ms;
  let rows: Row[] = [];
  while (performance.now() < end) {
    const r = await lz(env, "ctl", "list", "--all-hosts", "--json");
    if (r.code === 0) {
      rows = JSON.parse(r.stdout).result.hosts;
      if (ok(rows)) return rows;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what}: not within ${ms / 1000} s; last ${JSON.stringify(rows)}`);
}

Deno.test({
  name:
    "watched hosts: two hosts and local from the server's table; down with a next try, then back",
  ignore: missing !== null,
  async fn() {
    await using sshd = await startSshd();
    const one = sshd.remoteHome("one", remoteConfig);
    const two = sshd.remoteHome("two", remoteConfig);
    const env = localEnv(sshd, { one, two }, remoteConfig);
    for (const [host, name] of [["one", "api"], ["two", "gpu"]]) {
      const r = await lz(env, "-H", host!, "ctl", "new", "--name", name!, "--command", "cat");
      assert.equal(r.code, 0, r.stderr);
    }
    await using local = spawnServe(env);
    await local.ready;
    const made = await lz(env, "ctl", "new", "--name", "here", "--command", "cat");
    assert.equal(made.code, 0, made.stderr);
    const names = (rows: Row[]) =>
      rows.map((h) => [h.host, h.phase, h.sessions?.map((s) => s.name)]);
    const up = await until(env, (rows) => rows.every((h) => h.up), "every host up");
    assert.deepEqual(names(up), [
      ["local", undefined, ["here"]],
      ["one", undefined, ["api"]],
      ["two", undefined, ["gpu"]],
    ]);
    // A session made there shows without asking again: the watch (long poll) brought it.
    const more = await lz(env, "-H", "two", "ctl", "new", "--name", "gpu2", "--command", "cat");
    assert.equal(more.code, 0, more.stderr);
    await until(env, (rows) => rows[2]!.sessions?.length === 2, "gpu2 listed");

    // sshd gone (its connections with it): both hosts down, each with its next try.
    await sshd.stop();
    const down = await until(env, (rows) => !rows[1]!.up && !rows[2]!.up, "both down");
    assert.equal(down[0]!.up, true, "the local list keeps working");
    const human = await lz(env, "ctl", "list", "--all-hosts");
    assert.match(human.stdout, /^local\s+session-1\s+here/m);
    assert.match(human.stdout, /^one: (down|connecting) \(.*\)$/m);
    const downRow = await until(env, (rows) => rows[1]!.phase === "down", "one down");
    assert.match(downRow[1]!.error!, /ssh to one failed|connection closed|closed/);
    assert.ok(downRow[1]!.retryAt, "a next try");

    // Back: the same sessions, as they were (the remote servers never stopped).
    await sshd.start();
    const back = await until(env, (rows) => rows.every((h) => h.up), "every host back");
    assert.deepEqual(back[2]!.sessions!.map((s) => s.name), ["gpu", "gpu2"]);
    await local.stop();
  },
});

Deno.test({
  name:
    "watched hosts: a blocked remote agent is notified once, with the host's name, no client attached",
  ignore: missing !== null,
  async fn() {
    await using sshd = await startSshd();
    const box = sshd.remoteHome("box", remoteConfig);
    const log = `${sshd.dir}/notified.txt`;
    const notify = `notify:\n  fallback_command: "cat >> ${log}; echo >> ${log}"\n`;
    const env = localEnv(sshd, { box }, remoteConfig + notify);
    const first = await lz(env, "-H", "box", "ctl", "new", "--name", "sh", "--command", "cat");
    assert.equal(first.code, 0, first.stderr);
    await using local = spawnServe(env);
    await local.ready;
    await until(env, (rows) => rows[1]?.up === true, "box up");
    // Declared blocked (OSC 7501) by a session nobody types into, redrawn (no new episode).
    const blocked = "sleep 0.5; for i in 1 2 3; do printf '\\033]7501;state=blocked:" +
      "kind=permission:msg=QXBwbHk/\\033\\\\'; sleep 0.3; done; sleep 600";
    const later = await lz(env, "-H", "box", "ctl", "new", "--name", "later", "--command", blocked);
    assert.equal(later.code, 0, later.stderr);
    await until(
      env,
      (rows) =>
        rows[1]!.sessions?.some((s) => s.name === "later" && s.state === "blocked") ?? false,
      "later blocked in the table",
    );
    const end = performance.now() + 30_000;
    const read = () => {
      try {
        return Deno.readTextFileSync(log);
      } catch {
        return "";
      }
    };
    while (!read().includes("needs you") && performance.now() < end) {
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 2000)); // a second one would have come by now
    const lines = read().split("\n").filter(Boolean);
    assert.deepEqual(lines, ["box: later: needs you — Apply?"]);
    await local.stop();
  },
});
