/**
 * End to end: the server draws on the client's terminal and reads it itself
 * (src/server/client_tty.ts), as tmux's server does; the client relays
 * nothing but sizes. Real clients in real PTYs, the real background server;
 * what each process holds and reads is read from /proc (Linux).
 */

import assert from "node:assert/strict";
import type { Session } from "../src/session/session.ts";
import { screenText, waitFor, waitForText } from "../src/session/test_util.ts";
import { type Lab, lab as e2eLab, MAIN } from "./e2e_lab.ts";

const WAIT = 30_000;
const CTRL_RIGHT_BRACKET = "\x1d";
const linux = Deno.build.os === "linux";
const lab = () => e2eLab("lazyshell-server-tty-");

/** The session's inner shell shows a prompt on a pane row. */
const innerPrompt = (s: Session) => screenText(s).split("\n").some((l) => /│\S*[$#]\s*$/.test(l));

/** A client that relays keys and frames over the socket (`LAZYSHELL_CLIENT_RELAY=1`). */
const relayingClient = (l: Lab) =>
  l.store.create({
    command: `LAZYSHELL_CLIENT_RELAY=1 exec ${Deno.execPath()} run -A --quiet ${MAIN}`,
    cols: 100,
    rows: 30,
  });

/** The terminal device `pid` has as its stdin. */
const terminalOf = (pid: number) => Deno.readLinkSync(`/proc/${pid}/fd/0`);

/** How many of `pid`'s open files are `device`. */
function holds(pid: number, device: string): number {
  let n = 0;
  for (const e of Deno.readDirSync(`/proc/${pid}/fd`)) {
    try {
      if (Deno.readLinkSync(`/proc/${pid}/fd/${e.name}`) === device) n++;
    } catch { /* closed meanwhile */ }
  }
  return n;
}

/** The server's pid, once its log says it is ready (the splash draws before it is). */
async function serverOf(l: Lab, client: Session): Promise<number> {
  await waitFor(
    client,
    () => {
      try {
        return l.serverPid() > 0;
      } catch {
        return false;
      }
    },
    WAIT,
    "the server's ready line",
  );
  return l.serverPid();
}

/** Times any thread of `pid` was switched out (it waited for, or was woken by, something). */
function wakeups(pid: number): number {
  let n = 0;
  for (const task of Deno.readDirSync(`/proc/${pid}/task`)) {
    const status = Deno.readTextFileSync(`/proc/${pid}/task/${task.name}/status`);
    for (const m of status.matchAll(/ctxt_switches:\s+(\d+)/g)) n += Number(m[1]);
  }
  return n;
}

/** Starts a shell and types a command in it: how often the client woke meanwhile. */
async function typeThrough(client: Session): Promise<number> {
  const before = wakeups(client.pid);
  client.write("n");
  await waitFor(client, () => innerPrompt(client), WAIT, "a shell");
  // Key by key, each echo drawn before the next: a relaying client wakes for each.
  const line = "echo typed-$((6*7))";
  for (let i = 1; i <= line.length; i++) {
    client.write(line[i - 1]!);
    await waitFor(
      client,
      () => screenText(client).includes(line.slice(0, i).trimEnd()),
      WAIT,
      line.slice(0, i),
    );
  }
  client.write("\r");
  await waitForText(client, "typed-42", WAIT);
  return wakeups(client.pid) - before;
}

Deno.test({
  name:
    "the server draws on the client's terminal and reads its keys; after a detach it holds nothing of it",
  ignore: !linux,
  fn: async () => {
    await using l = lab();
    const a = l.client(100, 30);
    await waitForText(a, "No sessions", WAIT);
    const tty = terminalOf(a.pid);
    const server = await serverOf(l, a);
    // Once attached (the splash drew "No sessions" before): the device, opened once.
    await waitFor(a, () => holds(server, tty) > 0, WAIT, `the server to open ${tty}`);
    assert.equal(holds(server, tty), 1);
    // Keys and frames skip the client: it reads nothing while a shell starts and echoes.
    const read = await typeThrough(a);
    assert.ok(read < 25, `the client woke ${read} times`);
    a.write(CTRL_RIGHT_BRACKET + "d");
    await a.exited;
    assert.equal(a.exitCode, 0, screenText(a));
    assert.doesNotMatch(screenText(a), /lazyshell/, "the terminal is given back");
    // The terminal is let go before the client restores it; nothing of it stays open, not even
    // the copy of stderr the first client made while its splash started the server.
    assert.equal(holds(server, tty), 0, `the server still holds ${tty}`);
  },
});

Deno.test({
  name:
    "LAZYSHELL_CLIENT_RELAY=1: the client relays keys and frames, the server never opens its terminal",
  ignore: !linux,
  fn: async () => {
    await using l = lab();
    const a = relayingClient(l);
    await waitForText(a, "No sessions", WAIT);
    const tty = terminalOf(a.pid);
    const server = await serverOf(l, a);
    const read = await typeThrough(a);
    assert.ok(read >= 60, `the client woke only ${read} times`);
    assert.equal(holds(server, tty), 0);
    a.write(CTRL_RIGHT_BRACKET + "d");
    await a.exited;
    assert.equal(a.exitCode, 0, screenText(a));
  },
});

Deno.test({
  name: "what is typed right after a detach reaches the program that runs next in that terminal",
  ignore: !linux,
  fn: async () => {
    await using l = lab();
    // The client, then `cat` in the same terminal: the server must not read a key of cat's.
    const host = l.store.create({
      command: `${Deno.execPath()} run -A --quiet ${MAIN}; echo client-ended; exec cat`,
      cols: 100,
      rows: 30,
    });
    await waitForText(host, "No sessions", WAIT);
    host.write(CTRL_RIGHT_BRACKET + "d");
    await waitForText(host, "client-ended", WAIT);
    host.write("after-detach\r");
    // The terminal's echo, then cat's copy of the line.
    await waitFor(
      host,
      () =>
        screenText(host).split("\n").filter((row) => row.trim() === "after-detach").length === 2,
      WAIT,
      "the line echoed and copied by cat",
    );
  },
});

for (const relay of [false, true]) {
  Deno.test({
    name: `a 256 KiB paste ${
      relay ? "relayed by the client" : "read from the client's terminal"
    } reaches the session whole`,
    ignore: !linux,
    fn: async () => {
      await using l = lab();
      const a = relay ? relayingClient(l) : l.client(100, 30);
      const server = await serverOf(l, a);
      const tty = terminalOf(a.pid);
      if (!relay) await waitFor(a, () => holds(server, tty) > 0, WAIT, `the server to open ${tty}`);
      await waitForText(a, "n starts", WAIT);
      a.write("n");
      await waitFor(a, () => innerPrompt(a), WAIT, "a shell");
      const size = 256 * 1024;
      const got = `${l.dir}/pasted`;
      // Raw: the session's own line discipline would drop what overflows a canonical line buffer.
      a.write(`stty raw -echo; head -c ${size} > ${got}; stty sane; echo pasted-$((6*7))\r`);
      await waitFor(a, () => screenText(a).includes("echo pasted-$((6*7))"), WAIT, "the command");
      // What a terminal sends for a paste: the whole text between the bracketed-paste marks.
      const text = "0123456789abcdef\n".repeat(size / 16).slice(0, size);
      a.write(`\x1b[200~${text}\x1b[201~`);
      await waitForText(a, "pasted-42", 60_000);
      const data = Deno.readTextFileSync(got);
      assert.equal(data.length, size);
      assert.ok(data === text, "the same bytes, in order");
    },
  });
}
