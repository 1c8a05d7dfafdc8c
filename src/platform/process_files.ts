/**
 * What the OS tells of a process beyond its liveness (docs/architecture.md, "The platform seam"):
 * its command line, executable, working directory, environment, memory status, open files and
 * children, the list of processes and the boot time. Linux reads /proc; every answer is null or
 * empty where there is none to read (another OS, another user's process, a process gone).
 */

const PROC = "/proc";

/** USER_HZ: the unit of the kernel's process times (100 on every Linux that ships). */
export const TICKS_PER_S = 100;

/** What `read` returns, or null where it throws (no such file, not ours to read, gone). */
function orNull<T>(read: () => T): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

const readTextOrNull = (path: string) => orNull(() => Deno.readTextFileSync(path));
const readLinkOrNull = (path: string) => orNull(() => Deno.readLinkSync(path));

const entriesOrEmpty = (path: string) => orNull(() => [...Deno.readDirSync(path)]) ?? [];

/** The text of a process's stat line (`self`: this process), or null. */
export function processStatText(pid: number | "self"): string | null {
  return readTextOrNull(`${PROC}/${pid}/stat`);
}

/**
 * The stat line of a process's main thread: the process's own fields (state,
 * groups, terminal) without the sum over every thread its own line computes.
 */
export function threadStatPath(pid: number): string {
  return `${PROC}/${pid}/task/${pid}/stat`;
}

/** processStatText, read asynchronously. */
export async function processStatTextAsync(pid: number): Promise<string | null> {
  try {
    return await Deno.readTextFile(`${PROC}/${pid}/stat`);
  } catch {
    return null;
  }
}

/** A process's argv as the kernel keeps it: NUL-separated, NUL-terminated. */
export function processCmdline(pid: number): string | null {
  return readTextOrNull(`${PROC}/${pid}/cmdline`);
}

/** The path of a process's executable. */
export function processExe(pid: number): string | null {
  return readLinkOrNull(`${PROC}/${pid}/exe`);
}

/** A process's working directory. */
export function processCwd(pid: number): string | null {
  return readLinkOrNull(`${PROC}/${pid}/cwd`);
}

/** A process's environment as the kernel keeps it: NUL-separated `KEY=value` entries. */
export function processEnvironText(pid: number): string | null {
  return readTextOrNull(`${PROC}/${pid}/environ`);
}

/** A process's status text (`VmRSS:`, `VmHWM:` …). */
export function processStatusText(pid: number): string | null {
  return readTextOrNull(`${PROC}/${pid}/status`);
}

/**
 * A process's memory figure from its status (`VmRSS`: resident now, `VmHWM`: its peak), in
 * bytes; 0 when the status has no such line, null when there is no status to read.
 */
export function processMemoryBytes(pid: number, field: "VmRSS" | "VmHWM"): number | null {
  const text = processStatusText(pid);
  if (text === null) return null;
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text);
  return m ? Number(m[1]) * 1024 : 0;
}

/** A process's CPU time so far (user + system, the stat line's fields 14 and 15), in s. */
export function processCpuSeconds(pid: number | "self"): number | null {
  const text = processStatText(pid);
  if (text === null) return null;
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
}

/** Resets a process's peak resident memory (VmHWM) to its current size (Linux clear_refs 5). */
export function resetPeakMemory(pid: number): void {
  Deno.writeTextFileSync(`${PROC}/${pid}/clear_refs`, "5");
}

/** Every process id the OS lists now (empty where none can be listed). */
export function processIds(): number[] {
  return entriesOrEmpty(PROC).map((e) => Number(e.name)).filter((n) => Number.isInteger(n));
}

/** processIds, read asynchronously: a long list must not hold the event loop. */
export async function processIdsAsync(): Promise<number[]> {
  const out: number[] = [];
  try {
    for await (const entry of Deno.readDir(PROC)) {
      const pid = Number(entry.name);
      if (Number.isInteger(pid)) out.push(pid);
    }
  } catch { /* nothing to list */ }
  return out;
}

/** What a process's file descriptors point at (files, `socket:[inode]`, `pipe:[…]` …). */
export function openFdTargets(pid: number): string[] {
  const out: string[] = [];
  for (const fd of entriesOrEmpty(`${PROC}/${pid}/fd`)) {
    const target = readLinkOrNull(`${PROC}/${pid}/fd/${fd.name}`);
    if (target !== null) out.push(target);
  }
  return out;
}

/** openFdTargets, read asynchronously. */
export async function openFdTargetsAsync(pid: number): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const entry of Deno.readDir(`${PROC}/${pid}/fd`)) {
      try {
        out.push(await Deno.readLink(`${PROC}/${pid}/fd/${entry.name}`));
      } catch { /* closed meanwhile */ }
    }
  } catch { /* gone, or not ours */ }
  return out;
}

/** A process's children, from each of its threads' `children` list. */
export function childProcessIds(pid: number): number[] {
  const out: number[] = [];
  for (const task of entriesOrEmpty(`${PROC}/${pid}/task`)) {
    const text = readTextOrNull(`${PROC}/${pid}/task/${task.name}/children`);
    for (const word of text?.split(" ") ?? []) if (word !== "") out.push(Number(word));
  }
  return out;
}

let boot: number | null | undefined;

/** The boot time, in s since the epoch (the kernel's `btime`), or null. */
export function bootTime(): number | null {
  if (boot !== undefined) return boot;
  const m = /^btime (\d+)$/m.exec(readTextOrNull(`${PROC}/stat`) ?? "");
  boot = m ? Number(m[1]) : null;
  return boot;
}
