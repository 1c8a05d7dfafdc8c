/**
 * One process's line of the OS process table (Linux: /proc/<pid>/stat),
 * apart from src/session/procinfo.ts, which also identifies programs.
 */

import { processStatText } from "./process_files.ts";

export interface ProcStat {
  readonly pid: number;
  readonly comm: string;
  readonly state: string;
  readonly ppid: number;
  readonly pgrp: number;
  /** The session id: the pid of the session's leader (a PTY child leads its own). */
  readonly session: number;
  /** The foreground process group of the controlling terminal (-1: none). */
  readonly tpgid: number;
  readonly startTime: number;
}

/** Parses `/proc/<pid>/stat`; comm may hold spaces and parentheses, so split after the last `)`. */
export function parseProcStat(text: string): ProcStat | null {
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  if (open < 0 || close < open) return null;
  const pid = Number(text.slice(0, open).trim());
  const rest = text.slice(close + 2).split(" ");
  // Fields after comm start at field 3 (state): index = field - 3.
  const field = (n: number) => Number(rest[n - 3]);
  const state = rest[0];
  if (!Number.isInteger(pid) || state === undefined || rest.length < 20) return null;
  return {
    pid,
    comm: text.slice(open + 1, close),
    state,
    ppid: field(4),
    pgrp: field(5),
    session: field(6),
    tpgid: field(8),
    startTime: field(22),
  };
}

export function readProcStat(pid: number): ProcStat | null {
  const text = processStatText(pid);
  return text === null ? null : parseProcStat(text);
}

/** Liveness is the platform's question (Linux reads /proc, elsewhere kill(pid, 0)). */
export { isAlive } from "./liveness.ts";
