/**
 * End-to-end: the real program (`deno run -A main.ts`) in a real PTY,
 * driven like a user and read through the headless emulator (no tmux),
 * waiting on screen text, never on sleeps.
 */

import assert from "node:assert/strict";
import type { Session } from "../src/session/session.ts";
import {
  processesWith,
  screenText,
  waitFor,
  waitForProcesses,
  waitForText,
} from "../src/session/test_util.ts";
import { shellQuote } from "../src/ipc/integrations.ts";
import { DENO, type Lab as E2eLab, lab as e2eLab, MAIN, RUN_MAIN } from "./e2e_lab.ts";

const WAIT = 30_000;
/** A shell prompt: the test shell's fixed `$ ` (fixtures/shell/bash). */
const PROMPT = /[$#]\s*$/m;
const INNER_PROMPT = /│\S*[$#]\s*$/;

interface Lab extends E2eLab {
  /** A bash in the lab's PTY, where the test types `lazyshell` as a user would. */
  readonly outer: Session;
}

/** A bash in a PTY with an isolated config (fallback notifications into a file). */
async function lab(cols = 100, rows = 30): Promise<Lab> {
  const l = e2eLab("lazyshell-tui-e2e-", { cols, rows });
  const outer = l.store.create({ command: "bash --norc --noprofile -i" });
  await waitForText(outer, PROMPT, WAIT);
  return { ...l, outer };
}

const type = (s: Session, text: string) => s.write(text);

/** The TUI has left the alternate screen and the outer shell prompts again. */
function backAtPrompt(tui: Session): Promise<void> {
  return waitFor(
    tui,
    () => {
      const text = screenText(tui);
      const last = text.split("\n").filter((l) => l.trim() !== "").at(-1) ?? "";
      return !text.includes(" lazyshell ") && /^\S*[$#]\s*$/.test(last);
    },
    WAIT,
    "the shell prompt after quitting",
  );
}
const lines = (s: Session) => screenText(s).split("\n");

Deno.test("the TUI starts, creates sessions, forwards typing, resizes and restores the terminal", async () => {
  await using l = await lab();
  const tui = l.outer;
  type(tui, `${RUN_MAIN}\r`);
  await waitForText(tui, "No sessions", WAIT);
  await waitForText(tui, "n new", WAIT);

  // n: a new session that takes focus (terminal mode, escape chord shown).
  type(tui, "n");
  await waitForText(tui, "TERMINAL", WAIT);
  await waitForText(tui, "ctrl+] back", WAIT);
  await waitFor(tui, () => lines(tui).some((l) => INNER_PROMPT.test(l)), WAIT, "the inner prompt");
  type(tui, "echo hi-$((40+2))\r");
  await waitForText(tui, "hi-42", WAIT);

  // ctrl+] back to navigation; a second session; output in the first marks it ●.
  type(tui, "\x1d");
  await waitForText(tui, "enter type", WAIT);
  type(tui, "n");
  await waitForText(tui, "bash-2", WAIT);
  await waitForText(tui, "TERMINAL", WAIT);
  type(tui, "\x1d");
  await waitForText(tui, "enter type", WAIT);
  type(tui, "k\r");
  await waitForText(tui, "TERMINAL", WAIT);
  const tag = `${Math.floor(Math.random() * 1e6)}`; // a job that outlives its shell's SIGHUP
  type(tui, `nohup sleep 73${tag} >/dev/null 2>&1 & sleep 1; echo later\r`);
  type(tui, "\x1d");
  await waitForText(tui, "enter type", WAIT);
  type(tui, "j");
  await waitForText(tui, /● bash\b/, WAIT);

  // Resize: the sessions follow the pane (80x24 → pane 57x22).
  tui.resize(80, 24);
  await waitFor(tui, () => lines(tui).length === 24 && /enter type/.test(lines(tui)[23]!), WAIT);
  type(tui, "\r");
  await waitForText(tui, "TERMINAL", WAIT);
  type(tui, "stty size\r");
  await waitForText(tui, "22 57", WAIT);
  type(tui, "\x1d");
  await waitForText(tui, "enter type", WAIT);

  // q asks while sessions run; y quits; the shell prompt and a sane stty are back.
  type(tui, "q");
  await waitForText(tui, "still running", WAIT);
  type(tui, "y");
  await backAtPrompt(tui);
  assert.deepEqual(processesWith(tag), []);
  type(tui, "stty -a | tr ' ' '\\n' | grep -E '^-?(icanon|echo|isig)$' | tr '\\n' ,; echo\r");
  await waitForText(tui, /isig,icanon,echo,\n\S*[$#]/, WAIT);
});

Deno.test("a failed command in a session you do not type into reaches the fallback command", async () => {
  await using l = await lab();
  const tui = l.outer;
  type(tui, `${RUN_MAIN}\r`);
  await waitForText(tui, "No sessions", WAIT);
  type(tui, "n");
  await waitFor(tui, () => lines(tui).some((l) => INNER_PROMPT.test(l)), WAIT, "the inner prompt");
  // OSC 133 C/D as a shell integration would write them, after we left terminal mode.
  type(tui, "read -r; printf '\\e]133;C\\a\\e]133;D;3\\a'\r");
  type(tui, "\x1d");
  await waitForText(tui, "enter type", WAIT);
  // The focus moved to navigation mode: the notification is no longer suppressed.
  type(tui, "\r");
  await waitForText(tui, "TERMINAL", WAIT);
  type(tui, "\r\x1d");
  await waitForText(tui, "enter type", WAIT);
  const file = `${l.dir}/notified`;
  const read = () => {
    try {
      return Deno.readTextFileSync(file);
    } catch {
      return "";
    }
  };
  await waitFor(tui, () => read().includes("bash: command failed (exit 3)"), WAIT, "notification");
  type(tui, "q");
  await waitForText(tui, "still running", WAIT);
  type(tui, "y");
  await backAtPrompt(tui);
});

Deno.test("a program declaring blocked (OSC 7501) shows ‼, B selects it, the fallback command gets the text", async () => {
  await using l = await lab();
  const tui = l.outer;
  const msg = btoa("approve Bash: touch lab-file.txt");
  // The fake agent waits for a line on stdin before declaring: the TUI is up by then.
  Deno.writeTextFileSync(
    `${l.dir}/agent.sh`,
    `read -r line\nprintf '\\033]7501;state=blocked:kind=permission:msg=${msg}\\033\\\\'\nsleep 600\n`,
  );
  Deno.writeTextFileSync(
    `${l.dir}/project.yml`,
    `sessions:\n  - name: shell\n  - name: api\n    group: agents\n    command: sh ${l.dir}/agent.sh\n`,
  );
  type(tui, `${RUN_MAIN} --project ${l.dir}/project.yml\r`);
  await waitForText(tui, /▌.*shell/, WAIT);
  await waitForText(tui, /api/, WAIT);
  type(tui, "j\r\r\x1d");
  await waitForText(tui, "‼ 1 blocked", WAIT);
  await waitForText(tui, "approve Bash: touch", WAIT);
  type(tui, "k");
  await waitForText(tui, /▌.*shell/, WAIT);
  type(tui, "B");
  await waitForText(tui, /▌‼ api/, WAIT);
  const read = () => {
    try {
      return Deno.readTextFileSync(`${l.dir}/notified`);
    } catch {
      return "";
    }
  };
  await waitFor(
    tui,
    () => read().includes("api: needs you — approve Bash: touch lab-file.txt"),
    WAIT,
    "the blocked notification",
  );
  type(tui, "q");
  await waitForText(tui, "still running", WAIT);
  type(tui, "y");
  await backAtPrompt(tui);
});

Deno.test("a new ./lazyshell.yml is shown and asked about before anything starts", async () => {
  await using l = await lab();
  const tui = l.outer;
  Deno.mkdirSync(`${l.dir}/proj`);
  Deno.writeTextFileSync(
    `${l.dir}/proj/lazyshell.yml`,
    `sessions:\n  - name: web\n    command: touch ${l.dir}/ran; exec bash --norc --noprofile -i\n`,
  );
  type(tui, `cd ${l.dir}/proj && ${DENO} run -A ${shellQuote(MAIN)}\r`);
  await waitForText(tui, "lazyshell.yml is new or changed here. It starts:", WAIT);
  await waitForText(tui, /^ {2}web {2}touch \S+\/ran; exec bash/m, WAIT);
  await waitForText(tui, "Start these sessions? [y/N]", WAIT);
  assert.equal(Deno.statSync(`${l.dir}/proj`).isDirectory, true);
  assert.throws(() => Deno.statSync(`${l.dir}/ran`), "nothing ran before the answer");
  type(tui, "y\r");
  await waitForText(tui, /▌\S* *web\b/, WAIT);
  Deno.statSync(`${l.dir}/ran`);
  type(tui, "q");
  await waitForText(tui, "still running", WAIT);
  type(tui, "y");
  await backAtPrompt(tui);
});

/** The pid of the client: the outer shell's child running main.ts. */
function tuiPid(shellPid: number): number | null {
  for (const task of Deno.readDirSync(`/proc/${shellPid}/task`)) {
    const children = Deno.readTextFileSync(`/proc/${shellPid}/task/${task.name}/children`).trim();
    for (const pid of children.split(/\s+/).filter(Boolean).map(Number)) {
      const cmdline = Deno.readTextFileSync(`/proc/${pid}/cmdline`);
      if (cmdline.includes("main.ts")) return pid;
    }
  }
  return null;
}

for (const signal of ["SIGTERM", "SIGHUP", "SIGINT"] as const) {
  Deno.test(`${signal} ends the client and restores the terminal; the sessions keep running until kill-server ends them and what they started`, async () => {
    await using l = await lab();
    const tui = l.outer;
    type(tui, `${RUN_MAIN}\r`);
    await waitForText(tui, "No sessions", WAIT);
    type(tui, "n");
    await waitFor(tui, () => lines(tui).some((l) => INNER_PROMPT.test(l)), WAIT, "inner prompt");
    // Jobs that ignore SIGHUP, each in its own process group (docs/control-api.md, "Processes and teardown").
    const tag = `${Math.floor(Math.random() * 1e6)}`;
    type(tui, `nohup sleep 71${tag} >/dev/null 2>&1 & (trap '' HUP; sleep 72${tag}) &\r`);
    await waitForProcesses(tag, 2, WAIT);
    const pid = tuiPid(tui.pid);
    if (pid === null) throw new Error("TUI process not found");
    Deno.kill(pid, signal);
    await backAtPrompt(tui);
    type(tui, "stty -a | tr ' ' '\\n' | grep -E '^-?(icanon|echo|isig)$' | tr '\\n' ,; echo\r");
    await waitForText(tui, /isig,icanon,echo,\n\S*[$#]/, WAIT);
    const ls = await l.run("ls");
    assert.equal(ls.code, 0, ls.stderr);
    assert.match(ls.stdout, /^session-1 bash: running /);
    assert.equal(processesWith(tag).length, 2, "the server keeps the session and its jobs");
    // A terminal that goes away is a detach, not a crash.
    assert.throws(() => Deno.statSync(`${l.dir}/data/lazyshell/crash.log`), Deno.errors.NotFound);
    // kill-server ends the session and what it started, HUP-proof jobs included.
    assert.equal((await l.run("kill-server")).code, 0);
    assert.deepEqual(processesWith(tag), []);
  });
}
