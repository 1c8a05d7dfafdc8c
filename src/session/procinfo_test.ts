import assert from "node:assert/strict";
import { identify } from "./identity.ts";
import {
  LinuxProcessTable,
  parseProcStat,
  processTableFor,
  type ProcStat,
  readProcess,
} from "./procinfo.ts";
import { SessionStore } from "./store.ts";
import { TEST_SHELL, testEnv, waitFor } from "./test_util.ts";

Deno.test("parseProcStat() reads fields after the last parenthesis", () => {
  const text = "4242 (my (odd) name) S 1 4242 4242 34816 4300 4194560 " +
    "0 0 0 0 0 0 0 0 20 0 1 0 987654 10000 100";
  const stat = parseProcStat(text);
  assert.ok(stat);
  assert.equal(stat.pid, 4242);
  assert.equal(stat.comm, "my (odd) name");
  assert.equal(stat.state, "S");
  assert.equal(stat.ppid, 1);
  assert.equal(stat.pgrp, 4242);
  assert.equal(stat.session, 4242);
  assert.equal(stat.tpgid, 4300);
  assert.equal(stat.startTime, 987654);
  assert.equal(parseProcStat("garbage"), null);
});

Deno.test("readProcess() refuses a pid reused while its arguments were read", () => {
  const stat = (startTime: number): ProcStat => ({
    pid: 7,
    comm: "claude",
    state: "S",
    ppid: 1,
    pgrp: 7,
    session: 7,
    tpgid: 7,
    startTime,
  });
  let reads = 0;
  const reused = readProcess(7, () => stat(reads++ === 0 ? 100 : 200), () => "claude\0");
  assert.equal(reused, null);
  const stable = readProcess(7, () => stat(100), () => "claude\0--x\0");
  assert.deepEqual(stable?.argv, ["claude", "--x"]);
  assert.equal(stable?.startTime, 100);
  const zombie = readProcess(7, () => ({ ...stat(100), state: "Z" }), () => "");
  assert.equal(zombie, null);
});

const env = testEnv();

async function foregroundWhileRunning(command: string, expectArgv0: RegExp): Promise<string[]> {
  await using store = new SessionStore({ shell: TEST_SHELL, env, cols: 80, rows: 24 });
  const session = store.create();
  session.write(`${command}\r`);
  let argv: readonly string[] = [];
  await waitFor(
    session,
    () => {
      argv = session.snapshot().foreground?.argv ?? [];
      return expectArgv0.test(argv[0] ?? "");
    },
    15_000,
    `foreground ${expectArgv0}`,
  );
  session.write("\x03");
  session.write("exit\r");
  await session.exited;
  return [...argv];
}

Deno.test("the foreground of an idle shell is the shell", async () => {
  await using store = new SessionStore({ shell: TEST_SHELL, env, cols: 80, rows: 24 });
  const session = store.create();
  await waitFor(session, () => session.snapshot().foreground?.comm === "bash", 15_000, "bash");
  assert.equal(session.snapshot().foreground?.pid, session.pid);
  session.write("exit\r");
  await session.exited;
  assert.equal(session.snapshot().foreground, null);
});

Deno.test("the foreground of `sleep` is sleep with its arguments", async () => {
  const argv = await foregroundWhileRunning("sleep 30", /^sleep$/);
  assert.deepEqual(argv, ["sleep", "30"]);
});

Deno.test("the foreground of `node script.js` is resolved to the script", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/myagent.js`, "setTimeout(() => {}, 30000);\n");
    const argv = await foregroundWhileRunning(`node ${dir}/myagent.js`, /node$/);
    assert.equal(argv[1], `${dir}/myagent.js`);
    const catalog = [{ id: "myagent", processes: [], scripts: ["myagent"], packages: [] }];
    assert.equal(
      identify({ pid: 1, startTime: 1, comm: "node", argv, exe: null }, catalog),
      "myagent",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the foreground of `python3 -c` is python with -c, never an agent", async () => {
  const argv = await foregroundWhileRunning(`python3 -c 'import time; time.sleep(30)'`, /python3$/);
  assert.equal(argv[1], "-c");
  const catalog = [{ id: "x", processes: ["python3"], scripts: ["-c"], packages: [] }];
  assert.equal(identify({ pid: 1, startTime: 1, comm: "python3", argv, exe: null }, catalog), null);
});

Deno.test("the foreground of a pipeline is its first process", async () => {
  const argv = await foregroundWhileRunning("sleep 31 | cat", /^sleep$/);
  assert.deepEqual(argv, ["sleep", "31"]);
});

Deno.test("a pipeline whose group leader exited still has a foreground member", async () => {
  const argv = await foregroundWhileRunning("true | sleep 32", /^sleep$/);
  assert.deepEqual(argv, ["sleep", "32"]);
});

Deno.test("an OS without a process-table implementation fails with a clear error", () => {
  for (const os of ["darwin", "windows"] as const) {
    assert.throws(
      () => processTableFor(os).foreground(1),
      new RegExp(`Foreground process detection is not implemented on ${os} yet`),
    );
  }
});

Deno.test("an unchanged foreground group reuses the answer; a new group reads /proc again", async () => {
  await using store = new SessionStore({ shell: TEST_SHELL, env, cols: 80, rows: 24 });
  const session = store.create();
  // bash itself, not the test shell's wrapper script (also named bash) before its exec.
  const bash = () => session.foreground()?.exe?.endsWith("/bash") === true;
  await waitFor(session, bash, 15_000, "bash");
  // An hour: this test must not depend on how fast a loaded machine runs it.
  const table = new LinuxProcessTable(3_600_000);
  const first = table.foreground(session.pid, session.pid);
  assert.equal(first?.comm, "bash");
  session.write("sleep 30\r");
  await waitFor(session, () => session.foreground()?.comm === "sleep", 15_000, "sleep");
  // A caller whose group has not changed gets the answer it had, without /proc.
  assert.equal(table.foreground(session.pid, session.pid), first);
  // The group hint says the foreground moved: /proc is read and tells sleep.
  assert.equal(table.foreground(session.pid, -2)?.comm, "sleep");
  const group = table.foreground(session.pid, -2)!.pid;
  assert.equal(table.foreground(session.pid, group)?.comm, "sleep");
  session.write("\x03exit\r");
  await session.exited;
});
