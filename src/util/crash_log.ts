/**
 * crash.log: the server's record of every failure an entry point contained
 * (util/guard.ts; docs/architecture.md, "A failure ends its owner, never its
 * neighbours"), each with its owner, what was done about it and its stack.
 * It lives in the data directory (`$XDG_DATA_HOME/lazyshell`), beside
 * server.log.
 *
 * Bounded: once the file passes MAX_CRASH_LOG_BYTES it is renamed
 * crash.log.1 (replacing the one before) and a new one starts, so the two
 * together stay under twice that; a failure that repeats is written once a
 * minute with the count of the others (guard.ts).
 */

import type { FaultReport, FaultSink } from "./guard.ts";

export const CRASH_LOG = "crash.log";
export const MAX_CRASH_LOG_BYTES = 1024 * 1024;

/** `<dir>/crash.log`. */
export function crashLogFile(dir: string): string {
  return `${dir}/${CRASH_LOG}`;
}

/**
 * One entry: a line `<ISO time> [<owner>] <where> failed: <action>` (with
 * `(and N more times since <time>)` for repeats), then the stack.
 */
export function crashEntry(report: FaultReport, at: Date): string {
  const action = report.action ?? "kept";
  const more = report.repeats > 0
    ? ` (and ${report.repeats} more time${report.repeats === 1 ? "" : "s"} since ${
      new Date(report.since ?? at.getTime()).toISOString()
    })`
    : "";
  const error = report.error;
  const stack = error instanceof Error ? error.stack ?? `${error.name}: ${error.message}` : (
    `thrown: ${String(error)}`
  );
  return `${at.toISOString()} [${report.owner}] ${report.where} failed: ${action}${more}\n${stack.trimEnd()}\n`;
}

/** Appends `text` to `<dir>/crash.log`, rotating it first when over `max`; the file, or null. */
export function appendCrash(dir: string, text: string, max = MAX_CRASH_LOG_BYTES): string | null {
  const file = crashLogFile(dir);
  try {
    Deno.mkdirSync(dir, { recursive: true });
    let size = 0;
    try {
      size = Deno.statSync(file).size;
    } catch { /* none yet */ }
    if (size > 0 && size + text.length > max) Deno.renameSync(file, `${file}.1`);
    Deno.writeTextFileSync(file, text, { append: true, mode: 0o600 });
    return file;
  } catch {
    return null;
  }
}

/** The server's sink: each report as an entry of `<dir>/crash.log`. */
export function crashLogSink(dir: string, max = MAX_CRASH_LOG_BYTES): FaultSink {
  return (report) => void appendCrash(dir, crashEntry(report, new Date()), max);
}
