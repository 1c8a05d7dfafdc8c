/**
 * What an agent's own conversation store is matched against (docs/restore.md,
 * "Where the conversation id comes from"): the agent's process as the OS
 * sees it — its job (the foreground process and the other processes of its
 * process group: `node codex.js` and the `codex` binary it starts), when it
 * started, its working directory, its environment (where its store is:
 * `HOME`, `CLAUDE_CONFIG_DIR`, `CODEX_HOME`, …) and the files it holds open.
 *
 * Linux only (src/platform/process_files.ts); elsewhere every answer is null
 * or empty, and the conversation comes from hooks alone. The one module of
 * the conversation finder that asks the OS about processes.
 */

import type { ProcessInfo } from "../model/snapshot.ts";
import { parseEnviron } from "../plugin/session_env.ts";
import { parseProcStat, readProcStat } from "../platform/proc_stat.ts";
import {
  bootTime,
  openFdTargetsAsync,
  processCwd,
  processEnvironText,
  processIdsAsync,
  processStatTextAsync,
  TICKS_PER_S,
} from "../platform/process_files.ts";

export interface AgentProcess {
  /** The foreground process (the one identity named). */
  readonly pid: number;
  /** Its kernel start time (the stat line's field 22, clock ticks since boot). */
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

/** Live processes by process group: read once for a look at every session. */
export type ProcessGroups = ReadonlyMap<number, readonly number[]>;

/**
 * Every live process's group, from its stat line, read asynchronously:
 * 200 processes cost ~12 ms of reads, which must not hold the event loop.
 */
export async function processGroups(): Promise<ProcessGroups> {
  const groups = new Map<number, number[]>();
  if (Deno.build.os !== "linux") return groups;
  for (const pid of await processIdsAsync()) {
    const text = await processStatTextAsync(pid);
    const stat = text === null ? null : parseProcStat(text);
    if (!stat || stat.state === "Z" || stat.state === "X") continue;
    groups.set(stat.pgrp, [...(groups.get(stat.pgrp) ?? []), pid]);
  }
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
  // Null when gone, or not ours.
  const cwd = processCwd(fg.pid);
  const environ = processEnvironText(fg.pid);
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

/** The files the processes hold open (their descriptors' targets), read asynchronously. */
export async function openFiles(pids: readonly number[]): Promise<string[]> {
  const files = new Set<string>();
  for (const pid of pids) {
    for (const target of await openFdTargetsAsync(pid)) {
      if (target.startsWith("/")) files.add(target);
    }
  }
  return [...files];
}
