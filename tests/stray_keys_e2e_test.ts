/**
 * End to end: text typed in navigation mode by mistake (the user thought
 * they were typing into the session) ends nothing. `x`, `W` and `q` ask
 * before ending a program or the server, and any key but the one that
 * confirms cancels the question (tmux's confirm-before): `fix my bug` does
 * not end the program at its `y`, `Why` does not restart it, `quickly` does
 * not end the server. The real client in a real PTY, the real server.
 */

import assert from "node:assert/strict";
import type { Session } from "../src/session/session.ts";
import { screenText, waitFor, waitForText } from "../src/session/test_util.ts";
import { lab as e2eLab } from "./e2e_lab.ts";

const WAIT = 30_000;
const CTRL_RIGHT_BRACKET = "\x1d";

/** The session's inner shell shows a prompt on a pane row. */
const innerPrompt = (s: Session) => screenText(s).split("\n").some((l) => /│\S*[$#]\s*$/.test(l));

/** Pids of the processes whose command line is exactly `args`. */
function pidsOf(args: readonly string[]): number[] {
  const want = args.join("\0") + "\0";
  const pids: number[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      if (Deno.readTextFileSync(`/proc/${e.name}/cmdline`) === want) pids.push(Number(e.name));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

Deno.test("text typed in navigation mode by mistake ends no program and not the server", async () => {
  await using l = e2eLab("lazyshell-stray-keys-");
  const a = l.client(120, 32);
  await waitForText(a, "No sessions", WAIT);
  a.write("n");
  await waitFor(a, () => innerPrompt(a), WAIT, "a shell");
  const program = ["sleep", String(100000 + Math.floor(Math.random() * 800000))];
  a.write(`${program.join(" ")}\r`);
  await waitFor(a, () => pidsOf(program).length === 1, WAIT, "the program running");
  const [pid] = pidsOf(program);
  a.write(CTRL_RIGHT_BRACKET);
  await waitForText(a, "enter type", WAIT);

  // Each text, then `?` (help) as a marker: once help shows, every key before it was read.
  for (const text of ["fix my bug", "Why", "quickly"]) {
    // (In `quickly`, once `u` cancelled the question, `c` opens copy mode and `y` leaves it.)
    a.write(text + "?");
    await waitFor(
      a,
      () => /Select the next session/.test(screenText(a)),
      WAIT,
      `help after ${text}`,
    );
    a.write("\x1b");
    await waitFor(a, () => !/Select the next session/.test(screenText(a)), WAIT, "help closed");
    const ls = await l.run("ls");
    assert.match(ls.stdout, /: running /, `${text}: the session runs (${ls.stdout}${ls.stderr})`);
    assert.deepEqual(pidsOf(program), [pid], `${text}: the same program still runs`);
  }

  // The keys that confirm still do: x, then y, ends the program.
  a.write("x");
  await waitForText(a, "y end it", WAIT);
  a.write("y");
  await waitFor(a, () => pidsOf(program).length === 0, WAIT, "the program ended by x y");
});
