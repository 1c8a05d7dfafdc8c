import assert from "node:assert/strict";
import {
  JOBOBJECT_EXTENDED_LIMIT_INFORMATION_SIZE,
  type Kernel32,
  killOnCloseInfo,
  WindowsJob,
} from "./jobobject_windows.ts";

Deno.test("the limit struct is 144 zeroed bytes with LimitFlags 0x2000 at offset 16", () => {
  const info = killOnCloseInfo();
  assert.equal(info.length, JOBOBJECT_EXTENDED_LIMIT_INFORMATION_SIZE);
  assert.equal(info.length, 144);
  const view = new DataView(info.buffer);
  assert.equal(view.getUint32(16, true), 0x2000);
  assert.deepEqual([...info.subarray(16, 20)], [0x00, 0x20, 0x00, 0x00], "little endian");
  const rest = [...info.subarray(0, 16), ...info.subarray(20)];
  assert.ok(rest.every((b) => b === 0), "every other field is zero");
});

function recorder(fail: Partial<Record<keyof Kernel32, boolean>> = {}) {
  const calls: string[] = [];
  const job = Deno.UnsafePointer.create(0x10n);
  const proc = Deno.UnsafePointer.create(0x20n);
  const name = (h: Deno.PointerValue) => (h === job ? "job" : h === proc ? "proc" : "?");
  const k32: Kernel32 = {
    CreateJobObjectW: () => (calls.push("CreateJobObjectW"), fail.CreateJobObjectW ? null : job),
    SetInformationJobObject: (h, cls, info, size) => {
      calls.push(
        `SetInformationJobObject(${name(h)}, ${cls}, flags=${
          new DataView(info.buffer).getUint32(16, true).toString(16)
        }, ${size})`,
      );
      return fail.SetInformationJobObject ? 0 : 1;
    },
    OpenProcess: (access, inherit, pid) => (
      calls.push(`OpenProcess(0x${access.toString(16)}, ${inherit}, ${pid})`), proc
    ),
    AssignProcessToJobObject: (j, p) => (
      calls.push(`Assign(${name(j)}, ${name(p)})`), fail.AssignProcessToJobObject ? 0 : 1
    ),
    TerminateJobObject: (h, code) => (calls.push(`Terminate(${name(h)}, ${code})`), 1),
    CloseHandle: (h) => (calls.push(`Close(${name(h)})`), 1),
    GetLastError: () => 5,
    NtSuspendProcess: (p) => (calls.push(`Suspend(${name(p)})`), 0),
    NtResumeProcess: (p) => (calls.push(`Resume(${name(p)})`), 0),
  };
  return { k32, calls };
}

Deno.test("a child is suspended, put in the kill-on-close job, then resumed", () => {
  const { k32, calls } = recorder();
  const job = new WindowsJob(k32);
  job.adopt(4242);
  job.terminate();
  job.close();
  job.close();
  assert.deepEqual(calls, [
    "CreateJobObjectW",
    "SetInformationJobObject(job, 9, flags=2000, 144)",
    "OpenProcess(0x901, 0, 4242)",
    "Suspend(proc)",
    "Assign(job, proc)",
    "Resume(proc)",
    "Close(proc)",
    "Terminate(job, 1)",
    "Close(job)",
  ]);
});

Deno.test("a failed assignment still resumes the child and reports the error", () => {
  const { k32, calls } = recorder({ AssignProcessToJobObject: true });
  const job = new WindowsJob(k32);
  assert.throws(() => job.adopt(7), /AssignProcessToJobObject failed: error 5/);
  assert.deepEqual(calls.slice(-3), ["Assign(job, proc)", "Resume(proc)", "Close(proc)"]);
});

Deno.test("a job that cannot be configured is closed and reported", () => {
  const { k32, calls } = recorder({ SetInformationJobObject: true });
  assert.throws(() => new WindowsJob(k32), /SetInformationJobObject failed: error 5/);
  assert.equal(calls.at(-1), "Close(job)");
  assert.throws(() => new WindowsJob(recorder({ CreateJobObjectW: true }).k32), /CreateJobObjectW/);
});
