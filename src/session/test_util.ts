/** Helpers for tests that drive real sessions: wait on signals, never sleep blindly. */

import type { Session } from "./session.ts";
import { SessionStore } from "./store.ts";

/**
 * The shell of every test session: bash with no user or system rc files
 * (fixtures/shell/bash, named bash so sessions are named as with a real one), whatever the machine's own set-up.
 */
export const TEST_SHELL = new URL("../../fixtures/shell/bash", import.meta.url).pathname;

/**
 * An environment for test sessions: SHELL is TEST_SHELL, HOME is empty, a
 * fixed prompt (`$ `), no history, no BASH_ENV/ENV. Keeps shells fast and
 * screens predictable on any machine.
 */
export function testEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    ...Deno.env.toObject(),
    SHELL: TEST_SHELL,
    HOME: "/nonexistent-lazyshell-test-home",
    PS1: "$ ",
    HISTFILE: "/dev/null",
    // Each call its own state dir: a server's saved sessions (the restore offer on attach) and
    // project trust answers never reach another test.
    XDG_STATE_HOME: Deno.makeTempDirSync({ prefix: "lazyshell-test-state-" }),
    ...extra,
  };
  for (const name of ["BASH_ENV", "ENV", "PROMPT_COMMAND"]) delete env[name];
  return env;
}

/** A session store running the test shell in the test environment. */
export function testStore(cols = 80, rows = 24): SessionStore {
  return new SessionStore({ shell: TEST_SHELL, env: testEnv(), cols, rows });
}

/** Resolves when `predicate` holds after some output, or rejects after `ms`. */
export function waitFor(
  session: Session,
  predicate: () => boolean,
  ms = 15_000,
  what = "condition",
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (predicate()) return resolve();
    let sub: Disposable | undefined = undefined;
    const timer = setTimeout(() => {
      sub?.[Symbol.dispose]();
      clearInterval(poll);
      reject(
        new Error(`Timed out after ${ms} ms waiting for ${what}; screen:\n${screenText(session)}`),
      );
    }, ms);
    const check = () => {
      if (!predicate()) return;
      clearTimeout(timer);
      clearInterval(poll);
      sub?.[Symbol.dispose]();
      resolve();
    };
    // Some conditions (process table) change without output: poll too.
    const poll = setInterval(check, 25);
    sub = session.on(check);
  });
}

export function screenText(session: Session): string {
  return session.terminal.visibleLines().join("\n");
}

export function waitForText(session: Session, text: string | RegExp, ms = 15_000): Promise<void> {
  const test = (s: string) => (typeof text === "string" ? s.includes(text) : text.test(s));
  return waitFor(session, () => test(screenText(session)), ms, `text ${text}`);
}

/** Live (not zombie) processes whose command line holds `tag`: what a teardown left behind. */
export function processesWith(tag: string): { pid: number; cmdline: string }[] {
  const found: { pid: number; cmdline: string }[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    const pid = Number(entry.name);
    if (!Number.isInteger(pid) || pid === Deno.pid) continue;
    try {
      const cmdline = Deno.readTextFileSync(`/proc/${pid}/cmdline`).replaceAll("\0", " ").trim();
      const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (cmdline.includes(tag) && state !== "Z" && state !== "X") found.push({ pid, cmdline });
    } catch { /* gone meanwhile */ }
  }
  return found;
}

/** Resolves once `count` live processes hold `tag` in their command line (or rejects after `ms`). */
export async function waitForProcesses(tag: string, count: number, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (processesWith(tag).length < count) {
    if (Date.now() > until) {
      throw new Error(
        `Only ${processesWith(tag).length} of ${count} processes with ${tag} started`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
