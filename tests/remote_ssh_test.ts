/**
 * `lazyshell -H` against a real sshd (src/remote/test_util.ts: Debian's
 * openssh-server on 127.0.0.1, a throw-away host key and user key): the
 * remote lazyshell is this checkout behind a wrapper script with a home of
 * its own, named by `hosts[].command`; ssh is `$LAZYSHELL_SSH`. Skipped with
 * one line where no sshd is installed.
 */

import assert from "node:assert/strict";
import { sshdMissing, startSshd } from "../src/remote/test_util.ts";
import { localEnv, lz, MAIN } from "./remote_helpers.ts";
import {
  processesWith,
  screenText,
  TEST_SHELL,
  waitFor,
  waitForText,
} from "../src/session/test_util.ts";
import { SessionStore } from "../src/session/store.ts";
import { shellQuote } from "../src/ipc/integrations.ts";
import { spawnServe } from "../tools/abuse/server.ts";

const FAKE = new URL("./testdata/prompt_agent.ts", import.meta.url).pathname;
const CAPTURES = new URL("../fixtures/captures/", import.meta.url).pathname;
const missing = sshdMissing();
if (missing) console.log(`tests/remote_ssh_test.ts: ${missing}`);

const remoteConfig = `control:\n  enabled: true\nshell: ${TEST_SHELL}\n`;

Deno.test({
  name: "-H: ls, ctl new/send/list/read, kill-server on the remote server through ssh",
  ignore: missing !== null,
  async fn() {
    await using sshd = await startSshd();
    const home = sshd.remoteHome("a", remoteConfig);
    const env = localEnv(sshd, { box: home });

    // No server there yet: ls says so (it starts none), with the host's name.
    const none = await lz(env, "-H", "box", "ls");
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^lazyshell: on box: No lazyshell server is running \(/);

    // ctl starts it, as `lazyshell` would, and drives it.
    const created = await lz(
      env,
      "-H",
      "box",
      "ctl",
      "new",
      "--name",
      "r1",
      "--command",
      "bash --norc --noprofile",
    );
    assert.deepEqual([created.code, created.stdout.trim(), created.stderr], [0, "session-1", ""]);
    const sent = await lz(
      env,
      "-H",
      "box",
      "ctl",
      "send",
      "r1",
      "echo remote-$((40+2))",
      "--enter",
    );
    assert.equal(sent.code, 0, sent.stderr);
    const listed = await lz(env, "-H", "box", "ctl", "list", "--json");
    const response = JSON.parse(listed.stdout);
    assert.deepEqual(response.result.sessions.map((s: { name: string }) => s.name), ["r1"]);
    let screen = "";
    for (let i = 0; i < 50 && !screen.includes("remote-42"); i++) {
      screen = (await lz(env, "-H", "box", "ctl", "read", "r1")).stdout;
    }
    assert.match(screen, /^remote-42$/m);
    const ls = await lz(env, "-H", "box", "ls");
    assert.equal(ls.code, 0, ls.stderr);
    assert.match(ls.stdout, /^session-1 r1: running/m);

    // The remote server's sockets keep their rules: a 0700 folder, 0600 sockets.
    const root = `${home.base}/run/lazyshell`;
    assert.equal(Deno.statSync(root).mode! & 0o777, 0o700);
    const sock = Deno.statSync(`${root}/server-default.sock`);
    assert.equal(sock.mode! & 0o077, 0);
    // Nothing listens locally: no runtime folder, no socket of a local server.
    assert.deepEqual([...Deno.readDirSync(env.XDG_RUNTIME_DIR!)], []);

    const reloaded = await lz(env, "-H", "box", "reload");
    assert.equal(reloaded.code, 0, reloaded.stderr);
    const saved = await lz(env, "-H", "box", "restore");
    assert.equal(saved.code, 0, saved.stderr);

    const killed = await lz(env, "-H", "box", "kill-server");
    assert.equal(killed.code, 0, killed.stderr);
    const after = await lz(env, "-H", "box", "ls");
    assert.equal(after.code, 2);
    // The next server there offers r1 back: `restore` over -H lists it, then restores it.
    const offered = await lz(env, "-H", "box", "restore");
    assert.equal(offered.code, 0, offered.stderr);
    assert.match(offered.stdout, /r1/);
    const restored = await lz(env, "-H", "box", "restore", "--all");
    assert.equal(restored.code, 0, restored.stderr);
    assert.match((await lz(env, "-H", "box", "ls")).stdout, /r1: running/);
  },
});

Deno.test({
  name: "-H: no lazyshell on the host, a bad host, ssh failing: one line each",
  ignore: missing !== null,
  async fn() {
    await using sshd = await startSshd();
    // A host whose shell start-up prints on stdout before lazyshell runs.
    const home = sshd.remoteHome("noisy", remoteConfig);
    const noisy = `${home.base}/noisy`;
    Deno.writeTextFileSync(noisy, `#!/bin/sh\necho "Welcome to box!"\nexec ${home.command} "$@"\n`);
    Deno.chmodSync(noisy, 0o755);
    const env = localEnv(sshd, { noisy: { ...home, command: noisy } });
    const greeted = await lz(env, "-H", "noisy", "ls");
    assert.equal(greeted.code, 2);
    assert.match(greeted.stderr, /^lazyshell: on noisy: No lazyshell server is running \(/);
    // A relative path means this folder, which is not on that host: refused before ssh runs.
    const relative = await lz(env, "-H", "noisy", "ctl", "new", "--cwd", "api");
    assert.deepEqual([relative.code, relative.stderr], [
      2,
      "lazyshell ctl: --cwd must be an absolute path on noisy (this folder is not there)\n",
    ]);
    // 127.0.0.1 itself: the remote shell has no `lazyshell` on its PATH.
    const none = await lz(env, "-H", "127.0.0.1", "ls");
    assert.deepEqual([none.code, none.stdout, none.stderr], [
      2,
      "",
      "lazyshell: lazyshell not found on 127.0.0.1: install it there (npm install -g lazyshell) " +
      "or set hosts[].command\n",
    ]);
    const ctl = await lz(env, "-H", "127.0.0.1", "ctl", "list");
    assert.equal(ctl.code, 2);
    assert.match(
      ctl.stderr,
      /^lazyshell ctl: lazyshell not found on 127\.0\.0\.1: install it there/,
    );
    // An option-like host never reaches ssh; an escape in a host is never printed raw.
    const option = await lz(env, "-H", "-oProxyCommand=touch x", "ls");
    assert.equal(option.code, 2);
    assert.match(option.stderr, /it would be read as an ssh option\n$/);
    const escape = await lz(env, "-H", "dev\x1b]0;pwned\x07", "ls");
    assert.equal(escape.code, 2);
    assert.ok(!escape.stderr.includes("\x1b"), escape.stderr);
    // ssh's own failure (nothing listens there): its last line, said as ssh's.
    await sshd.stop();
    const down = await lz(env, "-H", "127.0.0.1", "ls");
    assert.equal(down.code, 2);
    assert.match(down.stderr, /^lazyshell: ssh to 127\.0\.0\.1 failed: .*Connection refused\n$/);
  },
});

Deno.test({
  name: "-H: ctl answer types into a blocked fake agent on the remote host",
  ignore: missing !== null,
  async fn() {
    await using sshd = await startSshd();
    const home = sshd.remoteHome("a", remoteConfig);
    const env = localEnv(sshd, { box: home });
    const script = `${home.base}/claude.ts`;
    Deno.copyFileSync(FAKE, script);
    const log = `${home.base}/c1.log`;
    const command =
      `exec ${Deno.execPath()} run -A --quiet ${script} ${CAPTURES}claude-tool 13978 ${log}`;
    const created = await lz(env, "-H", "box", "ctl", "new", "--name", "c1", "--command", command);
    assert.equal(created.code, 0, created.stderr);
    const waited = await lz(
      env,
      "-H",
      "box",
      "ctl",
      "wait",
      "c1",
      "--state",
      "blocked",
      "--timeout",
      "30",
    );
    assert.equal(waited.code, 0, waited.stderr);
    const listed = JSON.parse((await lz(env, "-H", "box", "ctl", "list", "--json")).stdout);
    assert.equal(listed.result.sessions[0].prompt.question, "Do you want to proceed?");
    const answered = await lz(env, "-H", "box", "ctl", "answer", "c1", "--option", "2", "--json");
    assert.equal(answered.code, 0, answered.stderr);
    const a = JSON.parse(answered.stdout).result;
    assert.deepEqual([a.option, a.keys, a.receipt.left], [2, ["2"], true]);
    const keys = Deno.readTextFileSync(log).split("\n").filter(Boolean).map((l) => JSON.parse(l))
      .filter((e) => "key" in e).map((e) => e.key);
    assert.deepEqual(keys, ["2"]);
  },
});

Deno.test({
  name: "-H attach: a real PTY draws the remote server's sessions; typing reaches them; d detaches",
  ignore: missing !== null,
  async fn() {
    await using sshd = await startSshd();
    const home = sshd.remoteHome("a", remoteConfig);
    const env = localEnv(sshd, { box: home });
    const created = await lz(
      env,
      "-H",
      "box",
      "ctl",
      "new",
      "--name",
      "far",
      "--command",
      "bash --norc --noprofile",
    );
    assert.equal(created.code, 0, created.stderr);
    await using store = new SessionStore({ shell: TEST_SHELL, env, cwd: sshd.dir });
    const client = store.create({
      command: `exec ${shellQuote(Deno.execPath())} run -A --quiet ${shellQuote(MAIN)} -H box`,
      cols: 120,
      rows: 30,
    });
    // The remote server draws its list: the session made there.
    await waitFor(client, () => /▌\s*far/.test(screenText(client)), 30_000, "the remote list");
    client.write("\r"); // focus the session
    client.write("echo typed-$((6*7))\r");
    await waitForText(client, /^.*│typed-42\s*$/m, 30_000);
    // The remote session's own screen has it: the keys went there, not here.
    const read = await lz(env, "-H", "box", "ctl", "read", "far");
    assert.match(read.stdout, /^typed-42$/m);
    client.write("\x1d"); // unfocus
    client.write("d");
    await client.exited;
    assert.equal(client.exitCode, 0, screenText(client));
    // Detached: the session goes on there.
    const ls = await lz(env, "-H", "box", "ls");
    assert.match(ls.stdout, /^session-1 far: running/m);
  },
});

Deno.test({
  name:
    "ctl list --all-hosts, no server watching them: each host asked; a host down is shown down, then back",
  ignore: missing !== null,
  async fn() {
    await using sshd = await startSshd();
    const one = sshd.remoteHome("one", remoteConfig);
    const two = sshd.remoteHome("two", remoteConfig);
    const env = localEnv(sshd, { one, two }, remoteConfig);
    // The local server reads a config without these hosts (as before a reload): it watches
    // none, so `--all-hosts` asks each host itself (tests/remote_hosts_test.ts: from the table).
    const unwatched = `${sshd.dir}/unwatched`;
    Deno.mkdirSync(`${unwatched}/lazyshell`, { recursive: true });
    Deno.writeTextFileSync(`${unwatched}/lazyshell/config.yml`, remoteConfig);
    await using local = spawnServe({ ...env, XDG_CONFIG_HOME: unwatched });
    await local.ready;
    const make = async (host: string | null, name: string) => {
      const args = ["ctl", "new", "--name", name, "--command", "bash --norc --noprofile"];
      const r = await lz(env, ...(host ? ["-H", host] : []), ...args);
      assert.equal(r.code, 0, r.stderr);
    };
    await Promise.all([make(null, "here"), make("one", "api"), make("two", "gpu")]);

    const all = await lz(env, "ctl", "list", "--all-hosts", "--json");
    assert.equal(all.code, 0, all.stderr);
    const hosts = JSON.parse(all.stdout).result.hosts as {
      host: string;
      up: boolean;
      sessions?: { name: string }[];
    }[];
    assert.deepEqual(
      hosts.map((h) => [h.host, h.up, h.sessions?.map((s) => s.name)]),
      [["local", true, ["here"]], ["one", true, ["api"]], ["two", true, ["gpu"]]],
    );
    const table = await lz(env, "ctl", "list", "--all-hosts");
    assert.match(table.stdout, /^HOST\s+ID\s+NAME/);
    assert.match(table.stdout, /^two\s+session-1\s+gpu\s+-\s+running/m);

    // sshd gone: both hosts are down, tried 3 times; the local list still answers.
    await sshd.stop();
    const t0 = performance.now();
    const down = JSON.parse((await lz(env, "ctl", "list", "--all-hosts", "--json")).stdout)
      .result.hosts;
    const took = performance.now() - t0;
    assert.deepEqual(down.map((h: { up: boolean }) => h.up), [true, false, false]);
    assert.match(down[1].error, /^ssh to one failed: .*Connection refused/);
    assert.equal(down[1].tries, 3);
    console.log(`all hosts down: answered in ${Math.round(took)} ms (3 tries each, backoff)`);
    const human = await lz(env, "ctl", "list", "--all-hosts");
    assert.match(human.stdout, /^one: down \(ssh to one failed: .*; 3 tries\)$/m);
    assert.match(human.stdout, /^local\s+session-1\s+here/m);

    // Back: the same sessions, as they were (the remote servers never stopped).
    await sshd.start();
    const back = JSON.parse((await lz(env, "ctl", "list", "--all-hosts", "--json")).stdout)
      .result.hosts;
    assert.deepEqual(
      back.map((h: { host: string; up: boolean }) => [h.host, h.up]),
      [["local", true], ["one", true], ["two", true]],
    );
    assert.equal(back[2].sessions[0].name, "gpu");
    await local.stop();
  },
});

Deno.test({
  name:
    "-H attach: a dropped link gives the terminal back with one line; the remote session goes on",
  ignore: missing !== null,
  async fn() {
    await using sshd = await startSshd();
    const home = sshd.remoteHome("a", remoteConfig);
    const env = localEnv(sshd, { box: home });
    const created = await lz(env, "-H", "box", "ctl", "new", "--name", "far", "--command", "cat");
    assert.equal(created.code, 0, created.stderr);
    await using store = new SessionStore({ shell: TEST_SHELL, env, cwd: sshd.dir });
    const client = store.create({
      command: `${shellQuote(Deno.execPath())} run -A --quiet ${shellQuote(MAIN)} -H box; ` +
        `echo "client-exit=$?"; sleep 30`,
      cols: 120,
      rows: 30,
    });
    await waitFor(client, () => /▌\s*far/.test(screenText(client)), 30_000, "the remote list");
    // All that went up so far has an answer (the terminal's own reply to the client's mode query
    // too, whenever it went): the help opened and closed again, each frame read by the client.
    client.write("?");
    await waitForText(client, /Select the next session/, 30_000);
    client.write("\x1b");
    await waitFor(
      client,
      () => !/Select the next session/.test(screenText(client)),
      30_000,
      "the help closed",
    );
    // The link drops: the local ssh process ends (as when its TCP connection is reset).
    const ssh = processesWith("bridge attach").filter((p) =>
      /^(\S*\/)?ssh /.test(p.cmdline) && p.cmdline.includes(sshd.dir)
    );
    assert.equal(ssh.length, 1, JSON.stringify(ssh));
    // First the link stalls (ssh stopped): keys typed now get no answer.
    Deno.kill(ssh[0]!.pid, "SIGSTOP");
    for (const key of ["\r", "x", "y"]) {
      client.write(key);
      await new Promise((r) => setTimeout(r, 200));
    }
    Deno.kill(ssh[0]!.pid, "SIGKILL");
    await waitForText(client, /client-exit=\d/, 30_000);
    const text = screenText(client).replaceAll("\n", "");
    assert.match(
      text,
      /lazyshell: lost the connection to box \(3 inputs typed after its last answer may not have arrived\): the sessions there go on \(run the same command to attach again\)/,
    );
    assert.match(text, /client-exit=1/);
    assert.ok(!text.includes("n new"), "the alternate screen was left");
    const ls = await lz(env, "-H", "box", "ls");
    assert.match(ls.stdout, /^session-1 far: running/m);
  },
});

Deno.test({
  name:
    "-H attach: a blocked remote agent's notification reaches the local terminal once, with the host",
  ignore: missing !== null,
  async fn() {
    await using sshd = await startSshd();
    const home = sshd.remoteHome("a", remoteConfig);
    const env = localEnv(sshd, { box: home });
    const first = await lz(env, "-H", "box", "ctl", "new", "--name", "sh", "--command", "cat");
    assert.equal(first.code, 0, first.stderr);
    await using store = new SessionStore({ shell: TEST_SHELL, env, cwd: sshd.dir });
    const client = store.create({
      command: `exec ${shellQuote(Deno.execPath())} run -A --quiet ${shellQuote(MAIN)} -H box`,
      cols: 120,
      rows: 30,
    });
    let raw = "";
    using _tap = client.tap((d) => (raw += d));
    await waitFor(client, () => /▌\s*sh/.test(screenText(client)), 30_000, "the remote list");
    // Declared blocked (OSC 7501) by a session nobody types into.
    const blocked =
      "sleep 0.5; printf '\\033]7501;state=blocked:kind=permission:msg=QXBwbHk/\\033\\\\'; sleep 600";
    const later = await lz(env, "-H", "box", "ctl", "new", "--name", "later", "--command", blocked);
    assert.equal(later.code, 0, later.stderr);
    // With the host's name (hosts: box), as the OSC 777 title too.
    const osc = "\x1b]9;box: later: needs you — Apply?";
    await waitFor(client, () => raw.includes(osc), 30_000, "OSC 9 over the link");
    await new Promise((r) => setTimeout(r, 2000));
    assert.equal(raw.split(osc).length - 1, 1, "notified once");
    assert.ok(raw.includes("\x1b]777;notify;box: lazyshell;later: needs you"), "OSC 777");
    client.write("d");
    await client.exited;
    assert.equal(client.exitCode, 0);
  },
});

Deno.test({
  name: "-H ssh://host:PORT: the port reaches ssh (no -p in LAZYSHELL_SSH)",
  ignore: missing !== null,
  async fn() {
    await using sshd = await startSshd();
    const env = localEnv(sshd, {});
    const noPort = sshd.sshArgv.slice(0, -2); // without -p PORT
    assert.deepEqual(sshd.sshArgv.slice(-2), ["-p", String(sshd.port)]);
    const r = await lz(
      { ...env, LAZYSHELL_SSH: noPort.join(" ") },
      "-H",
      `ssh://127.0.0.1:${sshd.port}`,
      "ls",
    );
    // Logged in (ssh did not fail), the remote shell found no lazyshell: the one line.
    assert.equal(
      r.stderr,
      `lazyshell: lazyshell not found on ssh://127.0.0.1:${sshd.port}: install it there ` +
        "(npm install -g lazyshell) or set hosts[].command\n",
    );
  },
});
