/**
 * Foreground process of a PTY, from the OS process table (docs/detection.md, Identity).
 *
 * Linux reads /proc: the session leader's `tpgid`, then that process's
 * cmdline, checking its start time before and after (pid reuse). macOS and
 * Windows sit behind the same interface; they throw a clear error until a
 * machine can test them (macOS: proc_listpids(PROC_PGRP_ONLY) +
 * KERN_PROCARGS2; Windows: walk the leader's descendants, read the PEB).
 */

import type { ProcessInfo } from "../model/snapshot.ts";
import { isLauncher } from "./identity.ts";
import { type ProcStat, readProcStat } from "../platform/proc_stat.ts";
import { processCmdline, processExe, processIds } from "../platform/process_files.ts";

export { isAlive, parseProcStat, type ProcStat, readProcStat } from "../platform/proc_stat.ts";

export interface ProcessTable {
  /**
   * The foreground process of the terminal whose session leader is
   * `leaderPid`. `group`, when the caller can tell it cheaply (tcgetpgrp on
   * the PTY master), is the terminal's foreground process group: while it
   * stays the same, a recent answer is given again without reading /proc.
   */
  foreground(leaderPid: number, group?: number): ProcessInfo | null;
}

/**
 * Reads one process, attributing argv only when the start time is the same
 * before and after reading it (the pid was not reused in between).
 */
export function readProcess(
  pid: number,
  statOf: (pid: number) => ProcStat | null = readProcStat,
  cmdlineOf: (pid: number) => string | null = processCmdline,
): ProcessInfo | null {
  const before = statOf(pid);
  if (!before || before.state === "Z") return null;
  const cmdline = cmdlineOf(pid);
  const after = statOf(pid);
  if (cmdline === null || !after || after.startTime !== before.startTime) return null;
  const argv = cmdline.split("\0");
  if (argv[argv.length - 1] === "") argv.pop();
  // Null when not ours to read, or gone.
  const exe = processExe(pid);
  return { pid, startTime: before.startTime, comm: before.comm, argv, exe };
}

/**
 * Every live process of the terminal session `sid` (Linux): the session's
 * leader and whatever it started that did not call setsid itself, in any
 * process group (bash job control gives each background job its own), and
 * whether or not it ignores SIGHUP (`nohup`, `trap '' HUP`). Linux frees a
 * pid only once no process has it as its session id, so these cannot belong
 * to another session while the leader (`leaderStart`: its start time) or any
 * of them lives; a different process now holding the pid `sid` means the
 * session is over and its pid reused: nothing is returned.
 */
export function sessionMembers(sid: number, leaderStart: number | null): ProcStat[] {
  const members: ProcStat[] = [];
  for (const pid of processIds()) {
    const stat = readProcStat(pid);
    if (stat?.session !== sid || stat.state === "Z" || stat.state === "X") continue;
    if (pid === sid && leaderStart !== null && stat.startTime !== leaderStart) return [];
    members.push(stat);
  }
  return members;
}

const CACHE_MS = 1000;
/** How long an answer holds while the caller's foreground group stays the same. */
const SAME_GROUP_MS = 5000;

export class LinuxProcessTable implements ProcessTable {
  /** `sameGroupMs`: how long an answer holds for an unchanged group (tests lengthen it). */
  constructor(private readonly sameGroupMs = SAME_GROUP_MS) {}

  /**
   * Last answer per session leader. Detection asks after every settled
   * output (a 10 Hz spinner: 10 times a second); while the same process
   * (same pid, start time and comm) holds the foreground its argv is
   * re-read at most every CACHE_MS (a program may rewrite its argv, and a
   * read racing an exec may see the old one).
   */
  #last = new Map<
    number,
    { info: ProcessInfo; at: number; group: number; settled: boolean }
  >();

  foreground(leaderPid: number, group?: number): ProcessInfo | null {
    const cached = this.#last.get(leaderPid);
    const t = performance.now();
    // Same foreground group as last time: 8 spinner sessions ask ~80 times a
    // second, and each /proc file read is ~5 syscalls (~40 µs each on the VMs
    // we measure on). Not for a child of the shell that has not exec'd its
    // program yet (same comm as the shell), nor for a launcher (a shim
    // script, `env`): those change in place, keeping pid and group.
    if (
      group !== undefined && group > 0 && cached?.group === group && cached.settled &&
      t - cached.at < this.sameGroupMs
    ) {
      return cached.info;
    }
    const leader = readProcStat(leaderPid);
    if (!leader || leader.tpgid <= 0) {
      this.#last.delete(leaderPid);
      return null;
    }
    if (cached?.info.pid === leader.tpgid && t - cached.at < CACHE_MS) {
      const now = leader.tpgid === leaderPid ? leader : readProcStat(leader.tpgid);
      const info = cached.info;
      // exec keeps pid and start time but changes comm: then argv is read again.
      if (now?.startTime === info.startTime && now.comm === info.comm && now.state !== "Z") {
        return info;
      }
    }
    // The group leader of a pipeline may be gone while members remain.
    const info = readProcess(leader.tpgid) ?? this.#firstMemberOf(leader.tpgid);
    if (info) {
      const settled = !isLauncher(info) && (info.pid === leaderPid || info.comm !== leader.comm);
      this.#last.set(leaderPid, { info, at: t, group: leader.tpgid, settled });
    } else this.#last.delete(leaderPid);
    return info;
  }

  #firstMemberOf(pgrp: number): ProcessInfo | null {
    let best: number | null = null;
    for (const pid of processIds()) {
      const stat = readProcStat(pid);
      if (stat?.pgrp === pgrp && stat.state !== "Z" && (best === null || pid < best)) best = pid;
    }
    return best === null ? null : readProcess(best);
  }
}

class UnsupportedProcessTable implements ProcessTable {
  constructor(private readonly os: string) {}
  foreground(): ProcessInfo | null {
    throw new Error(`Foreground process detection is not implemented on ${this.os} yet`);
  }
}

export function processTableFor(os: typeof Deno.build.os = Deno.build.os): ProcessTable {
  return os === "linux" ? new LinuxProcessTable() : new UnsupportedProcessTable(os);
}
