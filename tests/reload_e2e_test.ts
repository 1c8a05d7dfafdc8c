/**
 * End to end: `lazyshell reload` and SIGHUP change the config of a running
 * server — 3 sessions, 2 clients attached, each the real program in a real
 * PTY — and nothing restarts: the same server pid, the same session pids,
 * both clients attached. A new key binding works in both clients, the new
 * `notify.fallback_command` is the one that runs, and a broken config is
 * refused with its file:line while the one in force stays.
 */

import assert from "node:assert/strict";
import type { Session } from "../src/session/session.ts";
import { isAlive } from "../src/session/procinfo.ts";
import { screenText, waitFor, waitForText } from "../src/session/test_util.ts";
import { type Lab, lab as e2eLab } from "./e2e_lab.ts";
import { exists } from "../src/util/fs.ts";

const WAIT = 30_000;

/** A session that declares it is blocked (OSC 7501), then waits: one notification. */
const blocked = (tag: string) =>
  `printf '\\033]7501;state=blocked:kind=permission:msg=${btoa(tag)}\\033\\\\'; sleep 600`;

function config(l: Lab, text: string): string {
  const file = `${l.dir}/config/lazyshell/config.yml`;
  Deno.writeTextFileSync(file, `control:\n  enabled: true\n${text}`);
  return file;
}

function notifyTo(l: Lab, name: string, help: string): string {
  return `notify:\n  fallback_command: "cat >> ${l.dir}/${name}"\n  rate_limit_seconds: 0\n` +
    `keys:\n  help: "${help}"\n`;
}

async function until(what: string, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + WAIT;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function serverReady(l: Lab): boolean {
  const log = `${l.dir}/data/lazyshell/server.log`;
  return exists(log) && Deno.readTextFileSync(log).includes("ready (pid");
}

/** Session pids by id, as `ctl list --json` reports them. */
async function pids(l: Lab): Promise<Record<string, number>> {
  const list = await l.run("ctl", "list", "--json");
  assert.equal(list.code, 0, list.stderr);
  const entries = JSON.parse(list.stdout).result.sessions as { id: string; pid: number }[];
  return Object.fromEntries(entries.map((e) => [e.id, e.pid]));
}

/** `key` opens the help box in this client (then esc closes it again). */
async function helpOpensWith(c: Session, key: string): Promise<void> {
  c.write(key);
  await waitForText(c, "Select the next session", WAIT);
  c.write("\x1b");
  await waitFor(c, () => !screenText(c).includes("Select the next session"), WAIT, "help closed");
}

/** `key` does not open the help box (a frame is drawn after it: the next key's selection moves). */
async function helpDoesNotOpenWith(c: Session, key: string): Promise<void> {
  c.write(key);
  c.write("j");
  await waitFor(c, () => /^▌.*two/m.test(screenText(c)), WAIT, "moved to two");
  assert.doesNotMatch(screenText(c), /Select the next session/);
  c.write("k");
  await waitFor(c, () => /^▌.*one/m.test(screenText(c)), WAIT, "back to one");
}

/** The notification a blocked session sends goes to `file` and nowhere else. */
async function notifiesTo(l: Lab, session: string, tag: string, file: string): Promise<void> {
  const sent = await l.run("ctl", "send", session, blocked(tag), "--enter");
  assert.equal(sent.code, 0, sent.stderr);
  const path = `${l.dir}/${file}`;
  await until(`${tag} in ${file}`, () => exists(path) && Deno.readTextFileSync(path).includes(tag));
  for (const other of ["notified", "notified-2", "notified-3"]) {
    if (other === file || !exists(`${l.dir}/${other}`)) continue;
    assert.doesNotMatch(Deno.readTextFileSync(`${l.dir}/${other}`), new RegExp(tag));
  }
  // Answered (a new line, then a prompt): the next blocked state is a new episode.
  await l.run("ctl", "send", session, "\x03");
}

Deno.test("reload and SIGHUP: keys and notify.fallback_command change in a running server with 3 sessions and 2 clients; nothing restarts", async () => {
  await using l = e2eLab("lazyshell-reload-e2e-");
  config(l, notifyTo(l, "notified", "?"));
  const a = l.client(100, 30);
  await waitForText(a, "No sessions", WAIT);
  await until("the server listens", () => serverReady(l));
  for (const name of ["one", "two", "three"]) {
    const made = await l.run("ctl", "new", "--name", name);
    assert.equal(made.code, 0, made.stderr);
  }
  await waitForText(a, "three", WAIT);
  const b = l.client(90, 26, "attach");
  await waitForText(b, "three", WAIT);
  const server = l.serverPid();
  const sessions = await pids(l);
  assert.equal(Object.keys(sessions).length, 3);
  for (const c of [a, b]) await helpOpensWith(c, "?");
  await notifiesTo(l, "three", "BEFORE", "notified");

  // `lazyshell reload`: help moves to `h`, notifications to notified-2.
  config(l, notifyTo(l, "notified-2", "h"));
  const reloaded = await l.run("reload");
  assert.equal(reloaded.code, 0, reloaded.stderr);
  assert.match(reloaded.stdout, /^Reloaded .*config\.yml, \d+ agent manifests\n$/);
  for (const c of [a, b]) {
    await waitForText(c, "Config reloaded", WAIT);
    await helpOpensWith(c, "h");
    await helpDoesNotOpenWith(c, "?");
  }
  await notifiesTo(l, "two", "AFTER", "notified-2");

  // A broken config: refused with its file:line, the one in force stays.
  const file = config(l, `${notifyTo(l, "notified-3", "g")}scrollback: lots\n`);
  const refused = await l.run("reload");
  assert.equal(refused.code, 1);
  assert.equal(refused.stdout, "");
  const lines = refused.stderr.trimEnd().split("\n");
  assert.match(lines[0]!, new RegExp(`^lazyshell: ${file}:\\d+: scrollback: `), refused.stderr);
  assert.equal(lines.at(-1), "lazyshell: Reload refused (1 problem): the running config stays");
  for (const c of [a, b]) {
    await waitForText(c, "Config not reloaded", WAIT);
    await helpOpensWith(c, "h");
  }
  await notifiesTo(l, "one", "KEPT", "notified-2");

  // SIGHUP does the same as `lazyshell reload`.
  config(l, notifyTo(l, "notified-3", "g"));
  Deno.kill(server, "SIGHUP");
  for (const c of [a, b]) {
    await waitForText(c, "Config reloaded", WAIT);
    await helpOpensWith(c, "g");
  }
  await notifiesTo(l, "three", "HANGUP", "notified-3");

  // Nothing restarted: the same server, the same sessions, both clients still attached.
  assert.equal(l.serverPid(), server);
  assert.ok(isAlive(server));
  assert.deepEqual(await pids(l), sessions);
  for (const pid of Object.values(sessions)) assert.ok(isAlive(pid), `session pid ${pid}`);
  for (const c of [a, b]) assert.equal(c.status, "running", screenText(c));
  const log = Deno.readTextFileSync(`${l.dir}/data/lazyshell/server.log`);
  assert.equal(log.match(/ready \(pid/g)?.length, 1, "one server start");
  assert.match(log, /lazyshell reload: Reloaded /);
  a.write("q");
  await waitForText(a, "and quit", WAIT);
  a.write("y");
  await a.exited;
  await b.exited;
});
