/**
 * Where libc is and the per-platform numbers its FFI callers pass (docs/architecture.md, "The
 * platform seam"): the library to dlopen, the symbol that locates errno, and the fcntl/ioctl
 * request values that differ between Linux and macOS. Null where lazyshell loads no libc
 * (Windows and the rest): callers then keep Deno's and node-pty's own I/O.
 */

import type { Os } from "./errno.ts";

export interface LibcNames {
  /** What Deno.dlopen opens. */
  readonly path: string;
  /** The function returning errno's address (errno is thread-local). */
  readonly errnoSymbol: "__errno_location" | "__error";
  /** fcntl: duplicate the fd, close-on-exec. */
  readonly F_DUPFD_CLOEXEC: number;
  /** ioctl: bytes waiting to be read. */
  readonly FIONREAD: number;
  /**
   * open(2) flags for a terminal the server draws on: read-write, non-blocking, close-on-exec,
   * never the controlling terminal. Null where the server does not open a client's terminal
   * (the PTY reactor that reads it is Linux only).
   */
  readonly terminalOpenFlags: number | null;
  /** eventfd(2) exists (Linux): the reactor's wake-up. */
  readonly eventfd: boolean;
  /** glibc's malloc_trim (Linux with glibc: libc.so.6). */
  readonly mallocTrim: boolean;
}

const LINUX: LibcNames = {
  path: "libc.so.6",
  errnoSymbol: "__errno_location",
  F_DUPFD_CLOEXEC: 1030,
  FIONREAD: 0x541b,
  // O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC
  terminalOpenFlags: 0o2 | 0o400 | 0o4000 | 0o2000000,
  eventfd: true,
  mallocTrim: true,
};

const DARWIN: LibcNames = {
  path: "/usr/lib/libSystem.B.dylib",
  errnoSymbol: "__error",
  F_DUPFD_CLOEXEC: 67,
  FIONREAD: 0x4004667f,
  terminalOpenFlags: null,
  eventfd: false,
  mallocTrim: false,
};

/** libc's name and numbers on `os`, or null where none is loaded. */
export function libcNames(os: Os = Deno.build.os): LibcNames | null {
  return os === "linux" ? LINUX : os === "darwin" ? DARWIN : null;
}

/**
 * `symbols` of this platform's libc, or null: no libc here, no FFI permission, or a symbol it
 * lacks (dlopen resolves them all at once).
 */
export function openLibc<const S extends Deno.ForeignLibraryInterface>(
  symbols: S,
  os: Os = Deno.build.os,
): Deno.DynamicLibrary<S>["symbols"] | null {
  const names = libcNames(os);
  if (!names) return null;
  try {
    return Deno.dlopen(names.path, symbols).symbols;
  } catch {
    return null;
  }
}
