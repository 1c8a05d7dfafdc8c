/**
 * Keeps stray stderr output off the TUI's screen. While the TUI owns the
 * terminal, fd 2 points to `<data dir>/tui-stderr.log` (this run's), and
 * is pointed back before anything is printed for the user.
 *
 * Why: Deno clears its progress bar on stderr (`ESC[0G ESC[2K ESC[J`) at
 * every dynamic import when stderr is a terminal, even when it shows none:
 * one `await import()` after the first frame erased the screen below the
 * cursor (found with tests/tui_e2e_test.ts). Library warnings would do the
 * same. Done with dup/dup2 through FFI; without FFI nothing changes.
 */

import { libcNames, openLibc } from "../platform/libc.ts";

/** fcntl: duplicate, close-on-exec (a server this client starts must not hold its terminal). */
const F_DUPFD_CLOEXEC = libcNames()?.F_DUPFD_CLOEXEC ?? -1;

interface Libc {
  creat(path: Uint8Array, mode: number): number;
  fcntl(fd: number, cmd: number, arg: number): number;
  dup2(fd: number, to: number): number;
  close(fd: number): number;
}

let libc: Libc | null | undefined;
let saved = -1;

function load(): Libc | null {
  if (libc !== undefined) return libc;
  libc = openLibc(
    {
      creat: { parameters: ["buffer", "u32"], result: "i32" },
      // fcntl is variadic; its int third argument is passed like a fixed one.
      fcntl: { parameters: ["i32", "i32", "i32"], result: "i32" },
      dup2: { parameters: ["i32", "i32"], result: "i32" },
      close: { parameters: ["i32"], result: "i32" },
    } as const,
  );
  return libc;
}

/** Sends fd 2 to `<dir>/tui-stderr.log` until restoreStderr(); idempotent. */
export function quietStderr(dir: string): void {
  if (saved >= 0) return;
  const c = load();
  if (!c) return;
  try {
    Deno.mkdirSync(dir, { recursive: true });
  } catch { /* creat reports it */ }
  const fd = c.creat(new TextEncoder().encode(`${dir}/tui-stderr.log\0`), 0o600);
  if (fd < 0) return;
  const copy = c.fcntl(2, F_DUPFD_CLOEXEC, 0);
  if (copy < 0 || c.dup2(fd, 2) < 0) {
    if (copy >= 0) c.close(copy);
    c.close(fd);
    return;
  }
  c.close(fd);
  saved = copy;
}

/** Points fd 2 back at the terminal; idempotent. */
export function restoreStderr(): void {
  if (saved < 0 || !libc) return;
  libc.dup2(saved, 2);
  libc.close(saved);
  saved = -1;
}
