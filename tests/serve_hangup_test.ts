/**
 * End to end: `lazyshell serve` whose terminal went away. SIGHUP reloads
 * instead of ending it, so a foreground serve outlives its terminal; its
 * stderr is then a hung-up terminal (every write fails with EIO) and the
 * server must go on answering: `reload`, `ls`, and `kill-server` ending it
 * cleanly.
 */

import assert from "node:assert/strict";
import { lab, MAIN } from "./e2e_lab.ts";
import { isAlive } from "../src/session/procinfo.ts";
import { screenText, waitForText } from "../src/session/test_util.ts";

Deno.test("serve goes on answering after SIGHUP once its terminal is gone", async () => {
  await using l = lab("lazyshell-hangup-");
  // serve in its own session (as `setsid lazyshell serve` would), on a terminal that then closes.
  const start = `new Deno.Command(Deno.execPath(), { args: ["run", "-A", "--quiet", ` +
    `${JSON.stringify(MAIN)}, "serve"], detached: true }).spawn(); ` +
    `await new Promise((r) => setTimeout(r, 600_000));`;
  const terminal = l.store.create({
    command: `exec ${Deno.execPath()} eval ${shellQuote(start)}`,
    cols: 200,
    rows: 10,
  });
  await waitForText(terminal, /ready \(pid \d+/, 30_000);
  const pid = Number(/ready \(pid (\d+)/.exec(screenText(terminal))![1]);
  try {
    // The terminal is gone: whatever serve writes on stderr from now on fails (EIO).
    l.store.remove(terminal.id);
    Deno.kill(pid, "SIGHUP");
    const reloaded = await answered(l.run("reload"));
    assert.equal(reloaded.code, 0, reloaded.stderr);
    assert.match(reloaded.stdout, /^Reloaded /);
    assert.equal((await answered(l.run("ls"))).code, 0);
    assert.ok(isAlive(pid), "SIGHUP ended nothing");
    const killed = await answered(l.run("kill-server"));
    assert.equal(killed.code, 0, killed.stderr);
    assert.ok(!isAlive(pid), "kill-server ended it");
    const log = Deno.readTextFileSync(`${l.dir}/data/lazyshell/lazyshell.log`);
    assert.match(log, /lazyshell reload: Reloaded /, "the reload's lines reach the log file");
  } finally {
    // In its own session: nothing else would end it.
    if (isAlive(pid)) Deno.kill(pid, "SIGKILL");
  }
});

/** The command's answer, or a failure after 20 s (a server that never answers). */
async function answered<T>(run: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("no answer within 20 s")), 20_000);
  });
  try {
    return await Promise.race([run, late]);
  } finally {
    clearTimeout(timer);
  }
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
