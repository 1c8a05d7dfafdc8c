/**
 * End to end: the lasting server and its clients, as a person uses them.
 * Each client is the real program (`deno run -A main.ts`) in a real PTY,
 * read through the headless emulator; the server is the real background
 * process `lazyshell` starts. No tmux, no sleeps: waits are on screen
 * text, files and process state.
 */

import assert from "node:assert/strict";
import type { Session } from "../src/session/session.ts";
import { isAlive } from "../src/session/procinfo.ts";
import { screenText, waitFor, waitForText } from "../src/session/test_util.ts";
import { lab as e2eLab, MAIN } from "./e2e_lab.ts";
import { exists } from "../src/util/fs.ts";

const WAIT = 30_000;
const lab = () => e2eLab("lazyshell-server-e2e-");

const CTRL_RIGHT_BRACKET = "\x1d";
const BLOCKED =
  "printf '\\033]7501;state=blocked:kind=permission:msg=QXBwbHk/\\033\\\\'; sleep 600";

/** The session's inner shell shows a prompt on a pane row. */
const innerPrompt = (s: Session) => screenText(s).split("\n").some((l) => /│\S*[$#]\s*$/.test(l));

Deno.test("sessions outlive their clients: detach, ls, attach at another size, SIGKILL the client, then the server", async () => {
  await using l = lab();
  const a = l.client(100, 30);
  await waitForText(a, "No sessions", WAIT);
  // The splash may show before the server listens: ls once it answers.
  let none = await l.run("ls");
  for (const end = Date.now() + WAIT; none.code === 2 && Date.now() < end;) {
    await new Promise((r) => setTimeout(r, 100));
    none = await l.run("ls");
  }
  assert.deepEqual([none.code, none.stdout, none.stderr], [
    0,
    "",
    "lazyshell: No sessions on server default\n",
  ]);
  // Two sessions: a shell that prints, and a program declaring it is blocked.
  a.write("n");
  await waitFor(a, () => innerPrompt(a), WAIT, "first shell");
  a.write("echo first-$((6*7))\r");
  await waitForText(a, "first-42", WAIT);
  a.write(CTRL_RIGHT_BRACKET + "n");
  await waitForText(a, "bash-2", WAIT);
  await waitFor(a, () => innerPrompt(a), WAIT, "second shell");
  a.write(`${BLOCKED}\r`);
  await waitForText(a, "‼", WAIT);
  a.write(CTRL_RIGHT_BRACKET + "d");
  await a.exited;
  assert.equal(a.exitCode, 0, screenText(a));
  assert.doesNotMatch(
    screenText(a),
    /lazyshell/,
    "the terminal is given back (no alternate screen)",
  );
  // As tmux says it, once the terminal is given back.
  assert.match(screenText(a), /\[detached \(from session bash-2, server default\)\]/);

  const ls = await l.run("ls");
  assert.equal(ls.code, 0, ls.stderr);
  const rows = ls.stdout.trimEnd().split("\n");
  assert.equal(rows.length, 2, ls.stdout);
  assert.match(rows[0]!, /^session-1 bash: running/);
  assert.match(rows[1]!, /^session-2 bash-2: running .*: blocked \(permission\)/);

  // Another terminal, another size: the same sessions, the marker and both screens.
  const stderrLog = `${l.dir}/data/lazyshell/tui-stderr.log`;
  if (exists(stderrLog)) Deno.removeSync(stderrLog); // the first client's splash made it
  const b = l.client(80, 24, "attach");
  await waitForText(b, "‼", WAIT);
  await waitForText(b, "Apply?", WAIT); // the blocked one's reason
  // Once the first frame is on screen, stray stderr goes to a log, not onto the frames.
  await waitFor(b, () => exists(stderrLog), WAIT, "stderr quieted");
  // Where the last client left: bash-2 is selected again.
  assert.ok(screenText(b).split("\n").some((row) => /^▌.*bash-2/.test(row)), screenText(b));
  b.write("k");
  await waitForText(b, "first-42", WAIT); // session-1's screen is there too
  // Output that keeps coming while no client is attached.
  b.write("\r");
  b.write("for i in $(seq 1 600); do echo tick-$i; sleep 0.05; done\r");
  await waitForText(b, "tick-3", WAIT);
  const client = b.pid;
  Deno.kill(client, "SIGKILL");
  await b.exited;
  const before = (await l.run("ls")).stdout;
  assert.match(before, /session-1 bash: running/, "SIGKILL of a client ends no session");
  const c = l.client(90, 26, "attach");
  await waitFor(
    c,
    () => {
      const ticks = [...screenText(c).matchAll(/tick-(\d+)/g)].map((m) => Number(m[1]));
      return Math.max(0, ...ticks) > 20;
    },
    WAIT,
    "ticks printed while detached",
  );

  // The server dies: the client says so in one line and gives the terminal back.
  const server = l.serverPid();
  Deno.kill(server, "SIGKILL");
  await c.exited;
  assert.equal(c.exitCode, 1);
  const said = screenText(c).split("\n").filter((line) => line.includes("lost the server"));
  assert.equal(said.length, 1, screenText(c));
  await waitFor(c, () => !isAlive(server), WAIT, "server gone");

  // The next lazyshell starts a new server cleanly over the stale socket, and offers the
  // sessions the killed one saved (docs/restore.md); esc keeps them for later.
  const d = l.client(100, 30);
  await waitForText(d, "No sessions", WAIT);
  await waitForText(d, "Restore 2 sessions saved before the server ended", WAIT);
  d.write("\x1b");
  await waitFor(d, () => !screenText(d).includes("Restore 2 sessions"), WAIT, "the offer closed");
  d.write("q");
  await d.exited;
  assert.equal(d.exitCode, 0);
  const left = [...Deno.readDirSync(`${l.dir}/run/lazyshell`)].map((e) => e.name);
  assert.deepEqual(left, [], "nothing left behind after the last quit");
});

Deno.test("two clients at once: own selection, typing shows in both, the PTY follows the latest", async () => {
  await using l = lab();
  const a = l.client(120, 34);
  await waitForText(a, "No sessions", WAIT);
  a.write("n");
  await waitFor(a, () => innerPrompt(a), WAIT, "shell");
  a.write(CTRL_RIGHT_BRACKET + "n");
  await waitForText(a, "bash-2", WAIT);
  const b = l.client(90, 26, "attach");
  await waitForText(b, "bash-2", WAIT);
  // b's own selection: session-1 (the first); a's stays on bash-2.
  b.write("\r");
  await waitForText(b, "TERMINAL", WAIT);
  b.write("echo typed-in-b\r");
  await waitForText(b, "typed-in-b", WAIT);
  // b typed last into session-1: its PTY has b's pane size.
  const size = async () =>
    /session-1 bash: running (\d+)x\d+/.exec((await l.run("ls")).stdout)?.[1];
  const bCols = Number(await size());
  a.write(CTRL_RIGHT_BRACKET + "k"); // a looks at session-1: b's typing is there too
  await waitForText(a, "typed-in-b", WAIT);
  // a focused it last: it takes a's size; what a types shows in b.
  a.write("\r");
  await waitForText(a, "TERMINAL", WAIT);
  a.write("echo typed-in-a\r");
  await waitForText(b, "typed-in-a", WAIT);
  const aCols = Number(await size());
  assert.ok(aCols > bCols, `a's pane is wider: ${aCols} vs ${bCols}`);
  // Quit from a ends the server; b is told in one line.
  a.write(CTRL_RIGHT_BRACKET + "q");
  await waitForText(a, "still running", WAIT);
  a.write("y");
  await Promise.all([a.exited, b.exited]);
  assert.equal(a.exitCode, 0);
  assert.match(screenText(b), /ended from another terminal/);
});

Deno.test("with no client attached, ctl and notifications keep working; kill-server leaves nothing", async () => {
  await using l = lab();
  Deno.writeTextFileSync(
    `${l.dir}/config/lazyshell/config.yml`,
    `control:\n  enabled: true\nnotify:\n  fallback_command: "cat >> ${l.dir}/notified"\n` +
      "  rate_limit_seconds: 0\n",
  );
  const a = l.client(100, 30);
  await waitForText(a, "No sessions", WAIT);
  a.write("d");
  await a.exited;
  const made = await l.run("ctl", "new", "--name", "later", "--command", `sleep 1; ${BLOCKED}`);
  assert.equal(made.code, 0, made.stderr);
  const waited = await l.run("ctl", "wait", "later", "--state", "blocked", "--timeout", "30");
  assert.equal(waited.code, 0, waited.stderr);
  await waitFor(
    a,
    () => {
      try {
        return Deno.readTextFileSync(`${l.dir}/notified`).includes("later: needs you");
      } catch {
        return false;
      }
    },
    WAIT,
    "the fallback notification",
  );
  const pid = l.serverPid();
  const killed = await l.run("kill-server");
  assert.equal(killed.code, 0, killed.stderr);
  assert.equal(isAlive(pid), false, "kill-server returns once the server is gone");
  const left = [...Deno.readDirSync(`${l.dir}/run/lazyshell`)].map((e) => e.name);
  assert.deepEqual(left, []);
  // The splash may show before the server listens: ls once it answers.
  let none = await l.run("ls");
  for (const end = Date.now() + WAIT; none.code === 2 && Date.now() < end;) {
    await new Promise((r) => setTimeout(r, 100));
    none = await l.run("ls");
  }
  assert.equal(none.code, 2);
  assert.match(none.stderr, /^lazyshell: No lazyshell server is running/);
});

Deno.test("notifications reach each attached client's terminal, tmux-wrapped where it runs in tmux, never for a session one types into", async () => {
  await using l = lab();
  Deno.writeTextFileSync(
    `${l.dir}/config/lazyshell/config.yml`,
    "control:\n  enabled: true\nnotify:\n  rate_limit_seconds: 0\n",
  );
  // Two clients started at once: one server.
  const a = l.store.create({
    command: `TMUX=/tmp/fake-tmux,1,0 exec ${Deno.execPath()} run -A --quiet ${MAIN}`,
    cols: 100,
    rows: 30,
  });
  const b = l.client(100, 30);
  await waitForText(a, "No sessions", WAIT);
  await waitForText(b, "No sessions", WAIT);
  const logFile = `${l.dir}/data/lazyshell/server.log`;
  const ready = () => {
    try {
      return /ready \(pid/.test(Deno.readTextFileSync(logFile));
    } catch {
      return false; // the first client shows its splash before the server writes anything
    }
  };
  await waitFor(a, ready, WAIT, "ready line");
  const log = Deno.readTextFileSync(logFile);
  assert.equal([...log.matchAll(/ready \(pid/g)].length, 1, `one server for two starts:\n${log}`);
  assert.doesNotMatch(log, /already running/);
  const socket = Deno.statSync(`${l.dir}/run/lazyshell/server-default.sock`);
  assert.equal(socket.mode! & 0o777, 0o600);
  assert.equal(Deno.statSync(`${l.dir}/run/lazyshell`).mode! & 0o777, 0o700);
  let rawA = "";
  let rawB = "";
  using _ta = a.tap((d) => (rawA += d));
  using _tb = b.tap((d) => (rawB += d));
  // b types into "typed": its blocked state notifies nobody.
  const typed = await l.run("ctl", "new", "--name", "typed", "--command", `read -r _; ${BLOCKED}`);
  assert.equal(typed.code, 0, typed.stderr);
  await waitForText(b, "typed", WAIT);
  b.write("\r");
  await waitForText(b, "TERMINAL", WAIT);
  b.write("go\r");
  await waitForText(b, "‼", WAIT);
  // A later one that nobody types into notifies both (after the first: the fence).
  const later = await l.run("ctl", "new", "--name", "later", "--command", `sleep 0.5; ${BLOCKED}`);
  assert.equal(later.code, 0, later.stderr);
  const osc = "\x1b]9;later: needs you — Apply?";
  await waitFor(a, () => rawA.includes(osc.replaceAll("\x1b", "\x1b\x1b")), WAIT, "OSC 9 for a");
  await waitFor(b, () => rawB.includes(osc), WAIT, "OSC 9 for b");
  assert.ok(rawA.includes("\x1bPtmux;"), "a's terminal is inside tmux: passthrough");
  assert.ok(!rawB.includes("\x1bPtmux;"), "b's is not");
  for (const raw of [rawA, rawB]) assert.ok(!raw.includes("typed: needs you"), "typed");
  b.write(CTRL_RIGHT_BRACKET + "d");
  a.write("d");
  await Promise.all([a.exited, b.exited]);
});

Deno.test("new sessions take SSH_AUTH_SOCK and API keys from the client that attached last", async () => {
  await using l = lab();
  const client = (env: string, mode = "") =>
    l.store.create({
      command: `exec env ${env} ${Deno.execPath()} run -A --quiet ${MAIN} ${mode}`,
      cols: 100,
      rows: 30,
    });
  const show = 'echo "k=[$ANTHROPIC_API_KEY] s=[$SSH_AUTH_SOCK]"\r';
  // The server starts with the first client's environment: an agent socket, no key.
  const a = client("-u ANTHROPIC_API_KEY SSH_AUTH_SOCK=/run/old-agent");
  await waitForText(a, "No sessions", WAIT);
  a.write("n");
  await waitFor(a, () => innerPrompt(a), WAIT, "first shell");
  a.write(show);
  await waitForText(a, "k=[] s=[/run/old-agent]", WAIT);
  a.write(CTRL_RIGHT_BRACKET + "d");
  await a.exited;
  // A key exported later, from another terminal without the agent: new sessions follow it.
  const b = client("-u SSH_AUTH_SOCK ANTHROPIC_API_KEY=sk-later", "attach");
  await waitForText(b, "bash", WAIT);
  b.write("n");
  await waitForText(b, "bash-2", WAIT);
  await waitFor(b, () => innerPrompt(b), WAIT, "second shell");
  b.write(show);
  await waitForText(b, "k=[sk-later] s=[]", WAIT);
  // A session already running keeps what it had.
  b.write(CTRL_RIGHT_BRACKET + "k\r");
  await waitFor(b, () => innerPrompt(b), WAIT, "first shell again");
  b.write(show);
  await waitFor(
    b,
    () =>
      screenText(b).split("\n").filter((r) => r.includes("k=[] s=[/run/old-agent]")).length >= 2,
    WAIT,
    "the first session unchanged",
  );
  b.write(CTRL_RIGHT_BRACKET + "d");
  await b.exited;
});
