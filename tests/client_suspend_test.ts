/**
 * End to end: a client stopped and continued by the job control of the shell
 * it runs in (`kill -STOP`, then `fg`). While it is stopped the shell takes
 * the terminal back: it puts its own modes in force (canonical, echo) and
 * prints `[1]+ Stopped` and its prompt over the frame; `fg` continues the
 * client without giving it its modes back. The client must take its terminal
 * again (raw mode, the alternate screen and the modes it set) and the
 * server draw it whole: before, keys were echoed by the terminal and reached
 * lazyshell only after Enter, and the shell's lines stayed on screen under
 * frames that redrew only what changed. Meanwhile what is typed is the
 * shell's: a server that draws on the client's terminal must not read it
 * (before, it took the keys, `fg` among them). A real interactive bash in a
 * real PTY, the real client and background server, both ways the client
 * attaches.
 */

import assert from "node:assert/strict";
import { delay } from "../src/util/async.ts";
import { waitFor, waitForText } from "../src/session/test_util.ts";
import { screenText } from "../src/session/test_util.ts";
import type { Session } from "../src/session/session.ts";
import { STARTING } from "../src/tui/splash.ts";
import { type Lab, lab as e2eLab, RUN_MAIN } from "./e2e_lab.ts";

const WAIT = 30_000;
const linux = Deno.build.os === "linux";

/** The first child of `pid` (the job the shell started). */
function childOf(pid: number): number {
  const kids = Deno.readTextFileSync(`/proc/${pid}/task/${pid}/children`).trim().split(/\s+/);
  return Number(kids[0]);
}

/** The session's inner shell shows a prompt on a pane row. */
const innerPrompt = (s: Session) => screenText(s).split("\n").some((l) => /│\S*[$#]\s*$/.test(l));

/** A client attached from an interactive bash (job control, its own modes while it reads). */
async function attachInBash(l: Lab, relay: boolean): Promise<{ shell: Session; client: number }> {
  const shell = l.store.create({ command: "exec bash --norc --noprofile -i", cols: 100, rows: 30 });
  await waitFor(shell, () => /[$#]\s*$/.test(screenText(shell)), WAIT, "bash's prompt");
  shell.write(`${relay ? "LAZYSHELL_CLIENT_RELAY=1 " : ""}${RUN_MAIN}\r`);
  // Attached: the server's frame, not the splash the client draws while it starts one.
  await waitFor(
    shell,
    () => screenText(shell).includes("n starts") && !screenText(shell).includes(STARTING),
    WAIT,
    "the server's first frame",
  );
  return { shell, client: childOf(shell.pid) };
}

for (const relay of [false, true]) {
  Deno.test({
    name: `a client ${
      relay ? "relaying its terminal" : "drawn on by the server"
    } stopped by its shell and brought back with fg takes its terminal again and is drawn whole`,
    ignore: !linux,
    fn: async () => {
      await using l = e2eLab("lazyshell-suspend-");
      const { shell, client } = await attachInBash(l, relay);
      Deno.kill(client, "SIGSTOP");
      await waitForText(shell, "Stopped", WAIT);
      // What is typed now is the shell's: a line typed ahead while a command runs is read by
      // the next command, not by a server reading the client's terminal meanwhile.
      // (Typed once the command runs: readline would keep what comes with the line for itself.)
      shell.write('\x15echo reading; sleep 1; read -r line; echo "got-$line"\r');
      await waitFor(shell, () => /^reading$/m.test(screenText(shell)), WAIT, "the command");
      shell.write("typed-ahead\r");
      await waitForText(shell, "got-typed-ahead", WAIT);
      // Ctrl+U first: the terminal's reply to the client's first query (synchronized output)
      // may come after the stop, and bash reads it as typed text.
      shell.write("\x15fg\r");
      // Drawn whole: the shell's lines are gone, the frame is back.
      await waitFor(
        shell,
        () => {
          const text = screenText(shell);
          return !/Stopped|\bfg\b/.test(text) && text.includes("n starts");
        },
        WAIT,
        "the client's screen without the shell's lines",
      );
      // Raw mode again: one key, no Enter, starts a session.
      shell.write("n");
      await waitFor(shell, () => innerPrompt(shell), WAIT, "a shell session started by `n`");
      shell.write("\x1dd");
      await waitForText(shell, /detached/, WAIT);
    },
  });
}

Deno.test({
  name:
    "while a client drawn on by the server is stopped, nothing is drawn over its shell; fg draws it whole",
  ignore: !linux,
  fn: async () => {
    await using l = e2eLab("lazyshell-suspend-");
    const { shell, client } = await attachInBash(l, false);
    // A session shown that prints all the time: every frame changes.
    shell.write("n");
    await waitFor(shell, () => innerPrompt(shell), WAIT, "a shell session");
    shell.write("while :; do date +%s%N; sleep 0.05; done\r");
    const printing = () => /\d{19}/.test(screenText(shell));
    await waitFor(shell, printing, WAIT, "the session printing");
    Deno.kill(client, "SIGSTOP");
    await waitForText(shell, "Stopped", WAIT);
    await delay(300);
    let writes = 0;
    {
      using _ = shell.on((e) => void (e.type === "output" && writes++));
      await delay(1500);
    }
    assert.equal(
      writes,
      0,
      `written over the shell while the client was stopped:\n${screenText(shell)}`,
    );
    shell.write("\x15fg\r");
    await waitFor(
      shell,
      () => !/Stopped|\bfg\b/.test(screenText(shell)) && printing(),
      WAIT,
      "the client's screen without the shell's lines",
    );
  },
});
