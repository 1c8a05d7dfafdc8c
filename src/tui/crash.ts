/**
 * An uncaught error in the TUI (a bug: docs/architecture.md, Conventions): the terminal is given
 * back first, the error with its stack goes to `<data dir>/crash.log`, and
 * the user reads one line saying where.
 */

import { messageOf } from "../errors.ts";

/** Restores, logs, and returns the one line to print. */
export function reportCrash(restore: () => void, dir: string, error: unknown): string {
  try {
    restore();
  } catch { /* the terminal is gone; still log */ }
  const file = logCrash(dir, error);
  return `lazyshell: internal error: ${messageOf(error)}${file ? ` (details in ${file})` : ""}`;
}

/** Appends the error with its stack to `<dir>/crash.log`; returns the file, or null. */
export function logCrash(dir: string, error: unknown): string | null {
  try {
    Deno.mkdirSync(dir, { recursive: true });
    const file = `${dir}/crash.log`;
    const text = error instanceof Error ? error.stack ?? error.message : String(error);
    Deno.writeTextFileSync(file, `${new Date().toISOString()} ${text}\n`, { append: true });
    return file;
  } catch {
    return null;
  }
}
