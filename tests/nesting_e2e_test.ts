/**
 * End to end: no hall of mirrors. `lazyshell` and `lazyshell attach` typed
 * into one of the server's own sessions are refused in one line (exit 2),
 * whether the client would draw on its terminal or relay; with
 * LAZYSHELL_SESSION_ID unset it attaches (forced), and another server
 * (`-L NAME`) attaches from inside a session. Real clients in real PTYs.
 */

import assert from "node:assert/strict";
import type { Session } from "../src/session/session.ts";
import { screenText, waitFor, waitForText } from "../src/session/test_util.ts";
import { lab as e2eLab, MAIN } from "./e2e_lab.ts";

const WAIT = 30_000;
const CTRL_RIGHT_BRACKET = "\x1d";
const LAZYSHELL = `${Deno.execPath()} run -A --quiet ${MAIN}`;
const REFUSED = "Sessions should be nested with care: this terminal is bash (session-1) of " +
  "this lazyshell server; unset LAZYSHELL_SESSION_ID to force";

/** The pane's rows joined (a wrapped line reads whole; lines run together). */
const paneText = (s: Session) =>
  screenText(s).split("\n").map((row) => row.split("│").slice(1).join("│").trimEnd()).join("");

/** The inner shell shows a prompt on a pane row. */
const innerPrompt = (s: Session) => screenText(s).split("\n").some((l) => /│\S*[$#]\s*$/.test(l));

Deno.test("lazyshell inside its own session is refused in one line; forced, or another server, it attaches", async () => {
  await using l = e2eLab("lazyshell-nesting-e2e-");
  const a = l.client(140, 40);
  await waitForText(a, "No sessions", WAIT);
  a.write("n");
  await waitFor(a, () => innerPrompt(a), WAIT, "a shell");
  const tries = [
    ["lazyshell", ""],
    ["attach", "attach"],
    // Relaying (no terminal named): its variables alone say where it runs.
    ["a relaying attach", "attach", "LAZYSHELL_CLIENT_RELAY=1 "],
  ];
  for (const [i, [what, args, env]] of tries.entries()) {
    a.write(`clear; ${env ?? ""}${LAZYSHELL} ${args}; echo "exit${i}=$?"\r`);
    await waitForText(a, new RegExp(`exit${i}=\\d`), WAIT);
    const text = paneText(a);
    assert.ok(text.includes(`lazyshell: ${REFUSED}`), `${what}: ${screenText(a)}`);
    assert.match(text, new RegExp(`to forceexit${i}=2`), what);
    assert.equal(text.split("Sessions should be nested").length, 2, `${what}: said once`);
  }
  // Forced: the inner client attaches and draws the server inside its own pane (its hint bar).
  a.write(`clear; LAZYSHELL_SESSION_ID= ${LAZYSHELL} attach; echo "inner-exit=$?"\r`);
  await waitFor(a, () => paneText(a).includes("enter type n new"), WAIT, "the mirror");
  a.write("d"); // to the inner client: detach
  await waitForText(a, /inner-exit=\d/, WAIT);
  assert.match(paneText(a), /inner-exit=0/);
  // Another server, from inside this session: allowed.
  a.write(`clear; ${LAZYSHELL} -L other; echo "other-exit=$?"\r`);
  await waitFor(
    a,
    () => screenText(a).split("\n").some((row) => row.includes("│") && row.includes("No sessions")),
    WAIT,
    "the other server's client",
  );
  a.write("q"); // no sessions there: the other server ends
  await waitForText(a, /other-exit=\d/, WAIT);
  assert.match(paneText(a), /other-exit=0/);
  a.write(CTRL_RIGHT_BRACKET + "q");
  await waitForText(a, "and quit", WAIT);
  a.write("y");
  await a.exited;
});
