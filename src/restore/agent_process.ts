/**
 * What an agent's own conversation store is matched against (docs/restore.md,
 * "Where the conversation id comes from"): the agent's process as the OS
 * sees it — its job (the foreground process and the other processes of its
 * process group: `node codex.js` and the `codex` binary it starts), when it
 * started, its working directory, its environment (where its store is:
 * `HOME`, `CLAUDE_CONFIG_DIR`, `CODEX_HOME`, …) and the files it holds open.
 *
 * Linux only (/proc); elsewhere every answer is null or empty, and the
 * conversation comes from hooks alone. The one module of the conversation
 * finder that reads /proc.
 */

import type { ProcessInfo } from "../model/snapshot.ts";
import { parseEnviron } from "../plugin/session_env.ts";
import { parseProcStat, readProcStat } from "../session/procinfo.ts";
import { readTextOrNull } from "../util/fs.ts";

export interface AgentProcess {
  /** The foreground process (the one identity named). */
  readonly pid: number;
  /** Its kernel start time (/proc/<pid>/stat field 22, clock ticks since boot). */
  readonly startTicks: number;
  /** When it started, in ms since the epoch (to about 1 s: the boot time is in seconds). */
  readonly startedAt: number;
  /** Its process group's live members (its job), itself first. */
  readonly pids: readonly number[];
  /** Its working directory, or null when unreadable. */
  readonly cwd: string | null;
  /** Its environment (empty when unreadable). */
  readonly env: Readonly<Record<string, string>>;
}

/** USER_HZ: the unit of /proc start times (100 on every Linux that ships). */
const TICKS_PER_S = 100;

/** Live processes by process group: read once for a look at every session. */
export type ProcessGroups = ReadonlyMap<number, readonly number[]>;

/**
 * Every live process's group, from /proc/<pid>/stat, read asynchronously:
 * 200 processes cost ~12 ms of reads, which must not hold the event loop.
 */
export async function processGroups(): Promise<ProcessGroups> {
  const groups = new Map<number, number[]>();
  if (Deno.build.os !== "linux") return groups;
  try {
    for await (const entry of Deno.readDir("/proc")) {
      const pid = Number(entry.name);
      if (!Number.isInteger(pid)) continue;
      let text: string;
      try {
        text = await Deno.readTextFile(`/proc/${pid}/stat`);
      } catch {
        continue;
      }
      const stat = parseProcStat(text);
      if (!stat || stat.state === "Z" || stat.state === "X") continue;
      groups.set(stat.pgrp, [...(groups.get(stat.pgrp) ?? []), pid]);
    }
  } catch { /* no /proc */ }
  return groups;
}

/**
 * The agent process `fg` (the session's foreground process), with the other
 * live members of its process group in `groups`, or null when it is gone or
 * not ours to read.
 */
export function readAgentProcess(fg: ProcessInfo, groups: ProcessGroups): AgentProcess | null {
  if (Deno.build.os !== "linux") return null;
  const stat = readProcStat(fg.pid);
  if (!stat || stat.startTime !== fg.startTime) return null;
  const boot = bootTime();
  if (boot === null) return null;
  let cwd: string | null = null;
  try {
    cwd = Deno.readLinkSync(`/proc/${fg.pid}/cwd`);
  } catch { /* gone, or not ours */ }
  const environ = readTextOrNull(`/proc/${fg.pid}/environ`);
  const others = (groups.get(stat.pgrp) ?? []).filter((pid) => pid !== fg.pid);
  return {
    pid: fg.pid,
    startTicks: stat.startTime,
    startedAt: boot * 1000 + Math.round(stat.startTime * 1000 / TICKS_PER_S),
    pids: [fg.pid, ...others],
    cwd,
    env: environ === null ? {} : parseEnviron(environ),
  };
}

/** The start time of a process (clock ticks since boot), or null when it is gone. */
export function startTicksOf(pid: number): number | null {
  return readProcStat(pid)?.startTime ?? null;
}

/** The files the processes hold open (their /proc/<pid>/fd links), read asynchronously. */
export async function openFiles(pids: readonly number[]): Promise<string[]> {
  const files = new Set<string>();
  for (const pid of pids) {
    try {
      for await (const entry of Deno.readDir(`/proc/${pid}/fd`)) {
        try {
          const target = await Deno.readLink(`/proc/${pid}/fd/${entry.name}`);
          if (target.startsWith("/")) files.add(target);
        } catch { /* closed meanwhile */ }
      }
    } catch { /* gone, or not ours */ }
  }
  return [...files];
}

let boot: number | null | undefined;

/** The boot time, in s since the epoch (/proc/stat `btime`). */
function bootTime(): number | null {
  if (boot !== undefined) return boot;
  const m = /^btime (\d+)$/m.exec(readTextOrNull("/proc/stat") ?? "");
  boot = m ? Number(m[1]) : null;
  return boot;
}
