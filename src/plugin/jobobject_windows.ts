/**
 * Windows: a plugin (or exec) and everything it starts live in one Job
 * Object with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE (docs/plugin-protocol.md; docs/architecture.md, Windows),
 * so closing the job handle, or lazyshell dying, ends the whole tree.
 *
 * Deno.Command cannot create a suspended process, so the child is
 * suspended right after spawn (NtSuspendProcess), assigned to the job, then
 * resumed (NtResumeProcess). The window between spawn and suspend is a few
 * microseconds; a child that spawns in that window escapes (documented in
 * docs/plugin-protocol.md). CreateProcessW with CREATE_SUSPENDED would close
 * it at the cost of re-implementing pipes over FFI.
 *
 * Not runnable on this Linux machine: the FFI sits behind the Kernel32
 * interface, and the struct layout and call sequence are unit-tested with a
 * recording fake (jobobject_windows_test.ts).
 */

import type { GroupProcess, GroupSpawnOptions, GroupStatus } from "./procgroup.ts";

export const JOBOBJECT_EXTENDED_LIMIT_INFORMATION_SIZE = 144;
export const LIMIT_FLAGS_OFFSET = 16;
export const JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE = 0x2000;
export const JOB_OBJECT_EXTENDED_LIMIT_INFORMATION_CLASS = 9;
export const PROCESS_TERMINATE = 0x0001;
export const PROCESS_SET_QUOTA = 0x0100;
export const PROCESS_SUSPEND_RESUME = 0x0800;

type Handle = Deno.PointerValue;

/** The kernel32/ntdll calls used, as plain functions (FFI or a fake). */
export interface Kernel32 {
  CreateJobObjectW(attributes: null, name: null): Handle;
  SetInformationJobObject(job: Handle, infoClass: number, info: Uint8Array, size: number): number;
  OpenProcess(access: number, inherit: number, pid: number): Handle;
  AssignProcessToJobObject(job: Handle, process: Handle): number;
  TerminateJobObject(job: Handle, exitCode: number): number;
  CloseHandle(handle: Handle): number;
  GetLastError(): number;
  NtSuspendProcess(process: Handle): number;
  NtResumeProcess(process: Handle): number;
}

/** JOBOBJECT_EXTENDED_LIMIT_INFORMATION (x64, 144 bytes), zeroed, LimitFlags = kill on close. */
export function killOnCloseInfo(): Uint8Array {
  const info = new Uint8Array(JOBOBJECT_EXTENDED_LIMIT_INFORMATION_SIZE);
  new DataView(info.buffer).setUint32(LIMIT_FLAGS_OFFSET, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE, true);
  return info;
}

/** One kill-on-close job holding one process tree. */
export class WindowsJob {
  #job: Handle;
  #closed = false;

  constructor(private readonly k32: Kernel32) {
    const job = k32.CreateJobObjectW(null, null);
    if (job === null) throw new Error(`CreateJobObjectW failed: error ${k32.GetLastError()}`);
    const info = killOnCloseInfo();
    if (
      k32.SetInformationJobObject(
        job,
        JOB_OBJECT_EXTENDED_LIMIT_INFORMATION_CLASS,
        info,
        info.length,
      ) === 0
    ) {
      const error = k32.GetLastError();
      k32.CloseHandle(job);
      throw new Error(`SetInformationJobObject failed: error ${error}`);
    }
    this.#job = job;
  }

  /** Suspend → assign → resume, so the process runs only once it is in the job. */
  adopt(pid: number): void {
    const access = PROCESS_SET_QUOTA | PROCESS_TERMINATE | PROCESS_SUSPEND_RESUME;
    const process = this.k32.OpenProcess(access, 0, pid);
    if (process === null) {
      throw new Error(`OpenProcess(${pid}) failed: error ${this.k32.GetLastError()}`);
    }
    try {
      this.k32.NtSuspendProcess(process);
      const ok = this.k32.AssignProcessToJobObject(this.#job, process);
      const error = ok === 0 ? this.k32.GetLastError() : 0;
      this.k32.NtResumeProcess(process);
      if (ok === 0) throw new Error(`AssignProcessToJobObject failed: error ${error}`);
    } finally {
      this.k32.CloseHandle(process);
    }
  }

  /** Ends every process in the job (the Windows "kill the group"). */
  terminate(exitCode = 1): void {
    if (!this.#closed) this.k32.TerminateJobObject(this.#job, exitCode);
  }

  /** Closing the last handle kills whatever is left (kill-on-close). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.k32.CloseHandle(this.#job);
  }
}

let ffi: Kernel32 | null = null;

/** The real kernel32 + ntdll through Deno.dlopen (Windows only, needs --allow-ffi). */
export function openKernel32(): Kernel32 {
  if (ffi) return ffi;
  const k = Deno.dlopen(
    "kernel32.dll",
    {
      CreateJobObjectW: { parameters: ["pointer", "pointer"], result: "pointer" },
      SetInformationJobObject: { parameters: ["pointer", "i32", "buffer", "u32"], result: "i32" },
      OpenProcess: { parameters: ["u32", "i32", "u32"], result: "pointer" },
      AssignProcessToJobObject: { parameters: ["pointer", "pointer"], result: "i32" },
      TerminateJobObject: { parameters: ["pointer", "u32"], result: "i32" },
      CloseHandle: { parameters: ["pointer"], result: "i32" },
      GetLastError: { parameters: [], result: "u32" },
    } as const,
  );
  const nt = Deno.dlopen(
    "ntdll.dll",
    {
      NtSuspendProcess: { parameters: ["pointer"], result: "i32" },
      NtResumeProcess: { parameters: ["pointer"], result: "i32" },
    } as const,
  );
  ffi = {
    CreateJobObjectW: () => k.symbols.CreateJobObjectW(null, null),
    SetInformationJobObject: (job, cls, info, size) =>
      k.symbols.SetInformationJobObject(job, cls, info as Uint8Array<ArrayBuffer>, size),
    OpenProcess: (access, inherit, pid) => k.symbols.OpenProcess(access, inherit, pid),
    AssignProcessToJobObject: (job, process) => k.symbols.AssignProcessToJobObject(job, process),
    TerminateJobObject: (job, code) => k.symbols.TerminateJobObject(job, code),
    CloseHandle: (handle) => k.symbols.CloseHandle(handle),
    GetLastError: () => k.symbols.GetLastError(),
    NtSuspendProcess: (process) => nt.symbols.NtSuspendProcess(process),
    NtResumeProcess: (process) => nt.symbols.NtResumeProcess(process),
  };
  return ffi;
}

/** GroupSpawner for Windows: the child runs inside its own kill-on-close job. */
export function spawnInJob(
  argv: readonly string[],
  options: GroupSpawnOptions,
  k32: Kernel32 = openKernel32(),
): GroupProcess {
  const [program, ...args] = argv;
  if (program === undefined) throw new Error("Empty command");
  const job = new WindowsJob(k32);
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(program, {
      args,
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      env: options.env,
      clearEnv: true,
      stdin: options.stdin,
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    job.adopt(child.pid);
  } catch (error) {
    job.close();
    throw error;
  }
  const status: Promise<GroupStatus> = child.status.then((s) => ({
    code: s.signal === null ? s.code : null,
    signal: s.signal,
  }));
  return {
    pid: child.pid,
    stdin: options.stdin === "piped" ? child.stdin : null,
    stdout: child.stdout,
    stderr: child.stderr,
    status,
    // Windows has no SIGTERM for a tree: both end the job's processes.
    signal: () => job.terminate(1),
    killLeftovers: () => {
      job.terminate(1);
      job.close();
    },
  };
}
