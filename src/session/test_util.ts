/** Helpers for tests that drive real sessions: wait on signals, never sleep blindly. */

import type { Session } from "./session.ts";

/**
 * An environment for test shells: no rc files (HOME is empty), a plain
 * prompt, no history. Keeps shells fast and screens predictable.
 */
export function testEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...Deno.env.toObject(),
    HOME: "/nonexistent-lazyshell-test-home",
    PS1: "$ ",
    HISTFILE: "/dev/null",
    ...extra,
  };
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
