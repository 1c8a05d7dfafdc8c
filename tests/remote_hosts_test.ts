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
import { processesWith, screenText, TEST_SHELL, waitFor } from "../src/session/test_util.ts";
import { SessionStore } from "../src/session/store.ts";
import { shellQuote } from "../src/ipc/integrations.ts";
import { spawnServe } from "../tools/abuse/server.ts";
import { localEnv, lz, MAIN } from "./remote_helpers.ts";

const FAKE = new URL("./testdata/prompt_agent.ts", import.meta.url).pathname;
const CAPTURES = new URL("../fixtures/captures/", import.meta.url).pathname;

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

Deno.test({
  name:
    "the TUI: local and two hosts in one list; a remote prompt answered from it; a remote row attached; a host down then back",
  ignore: missing !== null,
  async fn() {
    await using sshd = await startSshd();
    const one = sshd.remoteHome("one", remoteConfig);
    const two = sshd.remoteHome("two", remoteConfig);
    const env = localEnv(sshd, { one, two }, remoteConfig);
    // On one: a fake Claude blocked on a real captured permission prompt; on two: a cat.
    const script = `${one.base}/claude.ts`;
    Deno.copyFileSync(FAKE, script);
    const log = `${one.base}/c1.log`;
    const claude =
      `exec ${Deno.execPath()} run -A --quiet ${script} ${CAPTURES}claude-tool 13978 ${log}`;
    const made = [
      await lz(env, "-H", "one", "ctl", "new", "--name", "c1", "--command", claude),
      await lz(env, "-H", "two", "ctl", "new", "--name", "gpu", "--command", "cat"),
      await lz(env, "-H", "two", "ctl", "new", "--name", "web", "--command", "cat"),
    ];
    for (const r of made) assert.equal(r.code, 0, r.stderr);
    const waited = await lz(env, "-H", "one", "ctl", "wait", "c1", "--state", "blocked");
    assert.equal(waited.code, 0, waited.stderr);
    await using local = spawnServe(env);
    await local.ready;
    const here = await lz(env, "ctl", "new", "--name", "here", "--command", "cat");
    assert.equal(here.code, 0, here.stderr);

    // A real client in a PTY, reading the screen.
    await using store = new SessionStore({ shell: TEST_SHELL, env, cwd: sshd.dir });
    const client = store.create({
      command: `exec ${shellQuote(Deno.execPath())} run -A --quiet ${shellQuote(MAIN)}`,
      cols: 140,
      rows: 40,
    });
    const screen = () => screenText(client);
    const list = (text: string) =>
      /here/.test(text) && /▸ one · up/.test(text) && /c1\s+claude/.test(text) &&
      /▸ two · up/.test(text) && /gpu/.test(text);
    await waitFor(client, () => list(screen()), 60_000, "local, one and two in one list");
    const text = screen();
    assert.ok(text.indexOf("here") < text.indexOf("▸ one"), text);
    assert.ok(
      text.indexOf("▸ one") < text.indexOf("c1") && text.indexOf("c1") < text.indexOf("▸ two"),
    );
    assert.match(text, /Do you want to proceed\?/); // c1's question, under its row

    // j to c1 (the first remote row), o, 2: answered there through its ctl answer.
    client.write("j");
    await waitFor(client, () => /c1 on one/.test(screen()), 30_000, "c1 selected");
    client.write("o");
    await waitFor(client, () => /Answer c1/.test(screen()), 30_000, "the answer overlay");
    client.write("2");
    await waitFor(client, () => /✓ one: c1: answered/.test(screen()), 30_000, "the receipt");
    const keys = Deno.readTextFileSync(log).split("\n").filter(Boolean).map((l) => JSON.parse(l))
      .filter((e) => "key" in e).map((e) => e.key);
    assert.deepEqual(keys, ["2"]);

    // j j to web (two's second session), enter: this terminal shows two's own server (no hosts
    // there) with web selected (attach -t), d comes back.
    client.write("j");
    await waitFor(client, () => /gpu on two/.test(screen()), 30_000, "gpu selected");
    client.write("j");
    await waitFor(client, () => /web on two/.test(screen()), 30_000, "web selected");
    client.write("\r");
    await waitFor(
      client,
      () => !/▸ one/.test(screen()) && /▌\s*web/.test(screen()),
      60_000,
      "two's own list with web selected, attached over ssh",
    );
    // A session there asks meanwhile: this terminal hears it once (from two's own server, through
    // -H), not a second time from the local watcher.
    let raw = "";
    const tap = client.tap((d) => (raw += d));
    const blocked = "sleep 0.5; printf '\\033]7501;state=blocked:kind=permission:msg=QXBwbHk/" +
      "\\033\\\\'; sleep 600";
    const ask = await lz(env, "-H", "two", "ctl", "new", "--name", "ask", "--command", blocked);
    assert.equal(ask.code, 0, ask.stderr);
    const osc = "\x1b]9;two: ask: needs you — Apply?";
    await waitFor(client, () => raw.includes(osc), 30_000, "the notification");
    await new Promise((r) => setTimeout(r, 3000)); // a second one would have come by now
    tap[Symbol.dispose]();
    assert.equal(raw.split(osc).length - 1, 1, "notified once");
    client.write("d");
    await waitFor(client, () => list(screen()), 60_000, "back to the local list");

    // sshd gone: both hosts down with their next try; the local rows stay.
    await sshd.stop();
    await waitFor(
      client,
      () => /▸ one · down/.test(screen()) && /▸ two · down/.test(screen()) && /here/.test(screen()),
      60_000,
      "both hosts down",
    );
    assert.ok(!/gpu/.test(screen()), "a down host's rows are not shown");
    await sshd.start();
    await waitFor(client, () => list(screen()), 90_000, "both hosts back, with their sessions");

    // Attached to two again, the local client's terminal goes away: the attach goes with it.
    const attaches = () =>
      processesWith("bridge attach").filter((p) =>
        /^(\S*\/)?ssh /.test(p.cmdline) && p.cmdline.includes(sshd.dir)
      );
    client.write("j");
    client.write("j");
    await waitFor(client, () => /gpu on two/.test(screen()), 30_000, "gpu selected again");
    client.write("\r");
    await waitFor(
      client,
      () => !/▸ one/.test(screen()) && /▌\s*gpu/.test(screen()),
      60_000,
      "two's own list again",
    );
    assert.equal(attaches().length, 1);
    client.kill("SIGHUP");
    await client.exited;
    const end = performance.now() + 30_000;
    while (attaches().length > 0 && performance.now() < end) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(attaches(), [], "the attach ended with its client");
    await local.stop();
  },
});
