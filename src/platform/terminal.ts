/**
 * The terminal hand-over (docs/architecture.md, "Server and clients"): a client names its
 * terminal (path and device numbers) so that the server opens, reads and draws on it itself. It
 * needs a path naming another process's open fd (Linux: /proc/<pid>/fd/<n>) and the server's PTY
 * reactor (Linux); elsewhere the client relays bytes over the socket (docs/architecture.md, "The
 * platform seam").
 */

import type { Os } from "./errno.ts";

/** A terminal device as a client names it to the server. */
export interface TerminalDevice {
  readonly path: string;
  readonly device: number;
  readonly fs: number;
}

/** The path naming fd `fd` of process `pid`, or null where the OS has none to read. */
export function fdPath(pid: number | "self", fd: number, os: Os = Deno.build.os): string | null {
  return os === "linux" || os === "android" ? `/proc/${pid}/fd/${fd}` : null;
}

/** Whether a client's terminal may be handed to the server here. */
export function handsOverTerminal(os: Os = Deno.build.os): boolean {
  return os === "linux";
}

export interface FdLookup {
  readLink(path: string): string;
  stat(path: string): { rdev: number | null; dev: number };
}

const deno: FdLookup = { readLink: Deno.readLinkSync, stat: Deno.statSync };

/**
 * This process's terminal to hand over: stdin and stdout the same device. Null when they are
 * not, or the hand-over is not done here (the client relays).
 */
export function ownTerminal(os: Os = Deno.build.os, fs: FdLookup = deno): TerminalDevice | null {
  const stdin = fdPath("self", 0, os);
  const stdout = fdPath("self", 1, os);
  if (!handsOverTerminal(os) || stdin === null || stdout === null) return null;
  try {
    const path = fs.readLink(stdin);
    if (!path.startsWith("/dev/") || fs.readLink(stdout) !== path) return null;
    const { rdev, dev } = fs.stat(stdin);
    return rdev === null ? null : { path, device: rdev, fs: dev };
  } catch {
    return null;
  }
}

/** The size of this process's terminal (stdout's, as Deno reads it); 80×24 when it has none. */
export function terminalSize(): { cols: number; rows: number } {
  try {
    const { columns, rows } = Deno.consoleSize();
    return { cols: columns, rows };
  } catch {
    return { cols: 80, rows: 24 };
  }
}
