/**
 * Whether a process is alive (docs/architecture.md, "The platform seam"). Linux reads
 * /proc/<pid>/stat, which also tells a zombie (state Z: exited, not yet reaped — PID 1 in a
 * container often reaps nothing) from a live process; elsewhere kill(pid, 0) answers, where a
 * zombie counts as alive until reaped. Read at start-up to prune the runtime directories of
 * servers that are gone: a test that always said "gone" (macOS has no /proc) pruned live
 * servers' directories and left `ctl` finding none.
 */

import { errnoCodes, type Os } from "./errno.ts";
import { libcNames, openLibc } from "./libc.ts";

export interface LivenessProbe {
  readonly os: Os;
  /** The text of /proc/<pid>/stat, or null when there is none (Linux). */
  stat(pid: number): string | null;
  /** kill(pid, 0): true when the process exists (delivered, or EPERM: someone else's). */
  exists(pid: number): boolean;
}

/** This process's OS, read through /proc and kill(pid, 0). */
export const hostLiveness: LivenessProbe = {
  os: Deno.build.os,
  stat: (pid) => {
    try {
      return Deno.readTextFileSync(`/proc/${pid}/stat`);
    } catch {
      return null;
    }
  },
  exists: (pid) => kill0(pid),
};

let signals: { kill(pid: number, sig: number): number; errno(): number } | null | undefined;

/**
 * kill(2) with signal 0 through FFI: node:process's kill would load Node's compat layer (~24 ms)
 * into the client. False without FFI.
 */
function kill0(pid: number): boolean {
  if (signals === undefined) {
    const names = libcNames();
    const s = names &&
      openLibc(
        {
          kill: { parameters: ["i32", "i32"], result: "i32" },
          [names.errnoSymbol]: { parameters: [], result: "pointer" },
        } as const,
      );
    const where = s &&
      (s as unknown as Record<string, () => Deno.PointerValue>)[names.errnoSymbol]!;
    signals = s && where
      ? {
        kill: (p, sig) => s.kill(p, sig),
        errno: () => {
          const at = where();
          return at === null ? 0 : new Deno.UnsafePointerView(at).getInt32();
        },
      }
      : null;
  }
  if (!signals) return false;
  return signals.kill(pid, 0) === 0 || signals.errno() === errnoCodes().EPERM;
}

/** True while `pid` exists and (where the OS tells) is not a zombie. */
export function isAlive(pid: number): boolean {
  return aliveOn(hostLiveness, pid);
}

/** isAlive as `probe` (an OS, its /proc and its kill) answers it. */
export function aliveOn(probe: LivenessProbe, pid: number): boolean {
  // kill(0 or -n, 0) would ask about a process group, not a process.
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (probe.os === "linux" || probe.os === "android") {
    const text = probe.stat(pid);
    // No /proc entry: either no such process or no /proc mounted; kill(pid, 0) tells which.
    if (text === null) return probe.exists(pid);
    // The state follows comm, which may hold spaces and parentheses: read after the last ")".
    const state = text.slice(text.lastIndexOf(")") + 2, text.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X" && state !== "x";
  }
  return probe.exists(pid);
}
