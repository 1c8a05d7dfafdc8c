/**
 * A PTY child started by node-pty's native fork, read by the process-wide
 * PtyReactor instead of a node:tty stream per child (pty_reactor.ts says
 * why), written with write(2) (pty_writer.ts). Same contract as node-pty:
 * output arrives as UTF-8 strings, exit after the last output (or at most
 * EXIT_GRACE_MS after the child when a grandchild keeps the terminal open;
 * closing the master then hangs it up), kill defaults to SIGHUP.
 */

import { requireBinary } from "@lydell/node-pty/requireBinary.js";
import { libc } from "./libc.ts";
import type { Pty, PtyExit, PtySpawn } from "./pty.ts";
import type { PtyReactor } from "./pty_reactor.ts";
import { PtyWriter } from "./pty_writer.ts";

/** node-pty's wait for the last output after the child exits (DESTROY_SOCKET_TIMEOUT_MS). */
const EXIT_GRACE_MS = 200;

interface NativePty {
  fork(
    file: string,
    args: string[],
    env: string[],
    cwd: string,
    cols: number,
    rows: number,
    uid: number,
    gid: number,
    utf8: boolean,
    helperPath: string,
    onExit: (code: number, signal: number) => void,
  ): { fd: number; pid: number; pty: string };
  resize(fd: number, cols: number, rows: number): void;
}

let native: NativePty | undefined;

/**
 * Bytes waiting in the input queue of the terminal at `path` (the child's
 * side of the PTY): opened without becoming our controlling terminal, asked
 * (FIONREAD), closed at once — held open it would keep the PTY from hanging
 * up when the child ends. Null when it cannot be opened.
 */
function terminalUnread(path: string): number | null {
  const lib = libc()!;
  const fd = lib.openTerminal(path);
  if (fd < 0) return null;
  try {
    return lib.unread(fd);
  } finally {
    lib.close(fd);
  }
}

function binding(): NativePty {
  return native ??= requireBinary("pty.node") as NativePty;
}

export function spawnPolled(spec: PtySpawn, reactor: PtyReactor): Pty {
  const dataListeners: Array<(data: string) => void> = [];
  const exitListeners: Array<(exit: PtyExit) => void> = [];
  const decoder = new TextDecoder();
  let exit: PtyExit | null = null;
  let hungUp = false;
  let closed = false;
  let grace: ReturnType<typeof setTimeout> | undefined;
  const env = { ...spec.env, PWD: spec.cwd, TERM: spec.env.TERM ?? "xterm-256color" };
  const child = binding().fork(
    spec.file,
    [...spec.args],
    Object.entries(env).map(([k, v]) => `${k}=${v}`),
    spec.cwd,
    spec.cols,
    spec.rows,
    -1,
    -1,
    true,
    "spawn-helper-unused",
    (exitCode, signal) => {
      exit = { exitCode, signal };
      if (hungUp) void finish();
      else grace = setTimeout(() => void finish(), EXIT_GRACE_MS);
    },
  );
  // node-pty leaves the master inheritable: every later child would hold it
  // open, and this session's terminal would not hang up when it ends.
  libc()!.setCloexec(child.fd);
  const writer = PtyWriter.open(child.fd)!;
  const handle = reactor.add(child.fd, {
    data: (bytes) => {
      const text = decoder.decode(bytes, { stream: true });
      if (text) { for (const listener of dataListeners) listener(text); }
    },
    hangup: () => {
      hungUp = true;
      if (exit) void finish();
    },
  });

  async function finish(): Promise<void> {
    if (closed) return;
    closed = true;
    clearTimeout(grace);
    writer.close();
    await handle.flush();
    await handle.remove();
    libc()!.close(child.fd);
    for (const listener of exitListeners) listener(exit!);
  }

  return {
    pid: child.pid,
    write: (data) => {
      if (closed) return false;
      handle.touch();
      return writer.write(data);
    },
    resize: (cols, rows) => {
      if (!closed) binding().resize(child.fd, cols, rows);
    },
    kill: (signal) => {
      // Once the child is reaped its pid may belong to someone else.
      if (exit === null) Deno.kill(child.pid, signal ?? "SIGHUP");
    },
    foregroundGroup: () => closed ? -1 : libc()!.tcgetpgrp(child.fd),
    unreadInput: () => {
      if (closed) return null;
      const queued = terminalUnread(child.pty);
      return queued === null ? null : writer.pending + queued;
    },
    behind: () => !closed && handle.behind(),
    awaitEcho: (ms) => {
      if (!closed) handle.awaitData(ms);
    },
    pause: () => handle.pause(),
    resume: () => handle.resume(),
    onData: (listener) => void dataListeners.push(listener),
    onExit: (listener) => void exitListeners.push(listener),
  };
}
