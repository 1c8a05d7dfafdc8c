/**
 * POSIX process groups (docs/architecture.md, Child processes and process groups): `detached: true` makes Deno call
 * setsid, so the child leads a new session and group (pgid = pid) and
 * `kill(-pgid)` reaches every descendant that did not call setsid itself.
 *
 * Never signal `-pid` of a non-detached child: that group is lazyshell's.
 */

import type { GroupProcess, GroupSpawnOptions, GroupStatus } from "./procgroup.ts";

export function spawnGroup(argv: readonly string[], options: GroupSpawnOptions): GroupProcess {
  const [program, ...args] = argv;
  if (program === undefined) throw new Error("Empty command");
  const child = new Deno.Command(program, {
    args,
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    env: options.env,
    clearEnv: true,
    stdin: options.stdin,
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();
  const pgid = child.pid;
  let exited = false;
  const status: Promise<GroupStatus> = child.status.then((s) => {
    exited = true;
    return { code: s.signal === null ? s.code : null, signal: s.signal };
  });
  const kill = (signal: Deno.Signal) => {
    try {
      Deno.kill(-pgid, signal);
    } catch { /* the group is already empty */ }
  };
  return {
    pid: child.pid,
    stdin: options.stdin === "piped" ? child.stdin : null,
    stdout: child.stdout,
    stderr: child.stderr,
    status,
    signal: (signal) => kill(signal),
    killLeftovers: () => {
      if (exited) kill("SIGKILL");
    },
  };
}
