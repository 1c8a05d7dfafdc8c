/**
 * No hall of mirrors (docs/architecture.md, "Nesting"): `lazyshell` or
 * `attach` run inside one of this server's own sessions would draw the
 * server into one of its panes, which shows it again, and again. Like
 * tmux ("sessions should be nested with care, unset $TMUX to force"), the
 * server refuses such a client in one line, and the variable the client
 * reads ($LAZYSHELL_SESSION_ID) is the switch: unset, nothing is checked.
 *
 * Which terminal the client is on decides, when the server knows it (the
 * hello names it, Linux): nested when it is the PTY of one of this server's
 * running sessions — so a terminal window opened from a session, which
 * inherits its variables, is not taken for it. A relaying client names no
 * terminal: then its variables decide (its session's hook socket is in this
 * server's instance directory). Another server (`-L NAME`) has none of
 * these sessions, so it attaches: nesting two servers is allowed.
 */

import { fdPath } from "../platform/terminal.ts";
import type { HelloMessage, TerminalName } from "../wire/protocol.ts";

export interface SessionTerminal {
  readonly id: string;
  readonly name: string;
  readonly pid: number;
  readonly status: string;
}

/** A terminal's identity, as the hello names one. */
export type TerminalId = Pick<TerminalName, "device" | "fs">;

/**
 * The session of this server the client runs in, or null. `instanceDir`:
 * this server's sockets directory; `terminalOf`: the terminal of a pid's
 * stdin (null when it cannot be read).
 */
export function nestedIn<S extends SessionTerminal>(
  hello: Pick<HelloMessage, "tty" | "inside">,
  sessions: readonly S[],
  instanceDir: string,
  terminalOf: (pid: number) => TerminalId | null = stdinTerminal,
): S | null {
  const inside = hello.inside;
  if (!inside) return null;
  const said = inside.sock.startsWith(`${instanceDir}/`)
    ? sessions.find((s) => s.id === inside.session && s.status === "running")
    : undefined;
  const tty = hello.tty;
  if (!tty) return said ?? null;
  for (const s of sessions) {
    if (s.status !== "running") continue;
    const t = terminalOf(s.pid);
    if (t ? t.device === tty.device && t.fs === tty.fs : s === said) return s;
  }
  return null;
}

/** The one line a nested client prints (exit 2). */
export function nestedMessage(session: { id: string; name: string }): string {
  return `Sessions should be nested with care: this terminal is ${session.name} ` +
    `(${session.id}) of this lazyshell server; unset LAZYSHELL_SESSION_ID to force`;
}

/**
 * The terminal of a process's stdin (else stdout, stderr: one may be
 * redirected), the PTY for a session's first process; null if none.
 */
export function stdinTerminal(pid: number): TerminalId | null {
  for (const fd of [0, 1, 2]) {
    const path = fdPath(pid, fd);
    if (path === null) return null;
    try {
      const { rdev, dev } = Deno.statSync(path);
      if (rdev) return { device: rdev, fs: dev };
    } catch { /* gone, or not ours to read */ }
  }
  return null;
}
