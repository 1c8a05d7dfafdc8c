/**
 * The processes of one capture, as the OS lists them (Linux): those in the PTY's
 * session, and those outside it that belong to the capture's isolated HOME
 * (Codex 0.171 starts a detached app-server daemon per CODEX_HOME). Used for
 * `procs-<tag>.txt` snapshots and to end leftovers by PID after the CLI exits.
 */

import { isAlive, parseProcStat } from "../../src/platform/proc_stat.ts";
import {
  processCmdline,
  processEnvironText,
  processExe,
  processIds,
  processStatText,
} from "../../src/platform/process_files.ts";

export interface ProcRow {
  readonly pid: number;
  readonly ppid: number;
  readonly pgrp: number;
  readonly sid: number;
  readonly tpgid: number;
  readonly state: string;
  readonly comm: string;
  readonly argv: readonly string[];
  readonly exe: string | null;
}

function row(pid: number): ProcRow | null {
  const text = processStatText(pid);
  const stat = text === null ? null : parseProcStat(text);
  if (!text || !stat) return null;
  // Field 6 (session) follows state, ppid, pgrp after the comm's closing parenthesis.
  const sid = Number(text.slice(text.lastIndexOf(")") + 2).split(" ")[3]);
  // Null for another user's process, or a zombie.
  const exe = processExe(pid);
  const argv = (processCmdline(pid) ?? "").split("\0").filter((a, i, all) =>
    a !== "" || i < all.length - 1
  );
  return { ...stat, sid, argv, exe };
}

export function allProcesses(): ProcRow[] {
  const rows: ProcRow[] = [];
  for (const pid of processIds()) {
    const r = row(pid);
    if (r) rows.push(r);
  }
  return rows;
}

/** Whether a process's argv or environment names `home` (the capture's isolated HOME). */
function belongsTo(pid: number, argv: readonly string[], home: string): boolean {
  if (argv.some((a) => a.includes(`${home}/`) || a === home)) return true;
  const env = processEnvironText(pid);
  return env !== null && env.split("\0").includes(`HOME=${home}`);
}

/** Processes of the PTY session `sid`, plus live ones outside it that belong to `home`. */
export function captureProcesses(sid: number | null, home: string): ProcRow[] {
  const self = Deno.pid;
  return allProcesses().filter((p) =>
    p.pid !== self && p.state !== "Z" &&
    ((sid !== null && p.sid === sid) || belongsTo(p.pid, p.argv, home))
  );
}

export function formatProcs(tag: string, tMs: number, leader: number | null, rows: ProcRow[]) {
  const lines = [`# ${tag} t_ms=${tMs} pty child pid=${leader}`, "pid ppid pgid sid tpgid stat"];
  for (const p of rows) {
    lines.push(`${p.pid} ${p.ppid} ${p.pgrp} ${p.sid} ${p.tpgid} ${p.state}`);
    lines.push(`    comm=${p.comm} exe=${p.exe ?? ""}`);
    lines.push(`    cmdline=${JSON.stringify(p.argv)}`);
  }
  return lines.join("\n") + "\n";
}

/** SIGTERM, then SIGKILL what is still alive after `graceMs`; returns the pids it signalled. */
export async function endProcesses(pids: readonly number[], graceMs = 800): Promise<number[]> {
  const signal = (pid: number, sig: Deno.Signal) => {
    try {
      Deno.kill(pid, sig);
    } catch {
      // already gone
    }
  };
  const live = pids.filter((pid) => isAlive(pid));
  live.forEach((pid) => signal(pid, "SIGTERM"));
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && live.some((pid) => isAlive(pid))) {
    await new Promise((r) => setTimeout(r, 50));
  }
  live.filter((pid) => isAlive(pid)).forEach((pid) => signal(pid, "SIGKILL"));
  return live;
}
