/**
 * The errno values the FFI callers compare against (docs/architecture.md, "The platform seam").
 * They are the platform's, not C's: EAGAIN is 11 on Linux and 35 on macOS and the BSDs, so a
 * writer that knew only Linux's took macOS's "buffer full, try again" for a dead child and
 * dropped the input queued behind it.
 */

export type Os = typeof Deno.build.os;

export interface ErrnoCodes {
  /** Not permitted (kill(pid, 0) on another user's process: it exists). */
  readonly EPERM: number;
  /** Interrupted by a signal: call again. */
  readonly EINTR: number;
  /** Would block (EWOULDBLOCK is the same value on these platforms): try again later. */
  readonly EAGAIN: number;
}

const LINUX: ErrnoCodes = { EPERM: 1, EINTR: 4, EAGAIN: 11 };
/** macOS (xnu's sys/errno.h), FreeBSD and NetBSD share these. */
const BSD: ErrnoCodes = { EPERM: 1, EINTR: 4, EAGAIN: 35 };

/** The errno values of `os` (default: this process's). */
export function errnoCodes(os: Os = Deno.build.os): ErrnoCodes {
  return os === "darwin" || os === "freebsd" || os === "netbsd" ? BSD : LINUX;
}
