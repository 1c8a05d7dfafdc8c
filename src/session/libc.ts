/**
 * The few libc calls the PTY layer makes through FFI (Linux, macOS):
 * write(2) for input that must not stall (pty_writer.ts), and read/poll/
 * eventfd for the output reactor (pty_reactor.ts, Linux only), with the
 * struct pollfd arrays poll(2) takes (pollfds, revents). Loaded once,
 * lazily; null where FFI or libc is unavailable (Windows, no --allow-ffi),
 * and callers then keep node-pty's own streams. The library, errno's values
 * and the request numbers that differ by platform come from src/platform/.
 */

import { type ErrnoCodes, errnoCodes } from "../platform/errno.ts";
import { libcNames, openLibc } from "../platform/libc.ts";

export const POLLIN = 0x1;
export const POLLHUP = 0x10;
/** revents that make an fd worth a read: data, an error, the other side closed. */
export const POLL_READY = POLLIN | 0x8 /* POLLERR */ | POLLHUP;
/** sizeof(struct pollfd): int fd, short events, short revents. */
const POLLFD_BYTES = 8;
/** fcntl commands and flags (same values on Linux and macOS). */
const F_SETFD = 2;
const FD_CLOEXEC = 1;
/** setvbuf: unbuffered. */
const IONBF = 2;
/** Linux: eventfd flag values. */
const EFD_NONBLOCK = 0o4000;
const EFD_CLOEXEC = 0o2000000;

export interface Libc {
  /** This platform's errno values, to compare errno() with. */
  readonly codes: ErrnoCodes;
  write(fd: number, buf: Uint8Array, len: number): number;
  read(fd: number, buf: Uint8Array, len: number): number;
  /** pread(2): reads at `offset` without moving the fd's position. */
  pread(fd: number, buf: Uint8Array, len: number, offset: number): number;
  /** Opens a file read-only and close-on-exec: the fd, or -1. */
  openReadOnly(path: string): number;
  close(fd: number): number;
  /**
   * sched_yield(2): whatever else is runnable on this CPU runs first (the
   * kernel worker that passes bytes just written to a terminal on).
   */
  yieldCpu(): void;
  /**
   * Opens a terminal device read-write, non-blocking and close-on-exec,
   * without making it the caller's controlling terminal (O_NOCTTY: a
   * server in its own session would otherwise take it, and its hangup):
   * the fd, or -1 (Linux).
   */
  openTerminal(path: string): number;
  isatty(fd: number): boolean;
  /** Marks the fd close-on-exec, so that later children do not inherit it. */
  setCloexec(fd: number): void;
  /** The foreground process group of the terminal (a PTY master works too), or -1. */
  tcgetpgrp(fd: number): number;
  /** Bytes waiting in the kernel to be read from `fd` (FIONREAD), 0 when unknown. */
  unread(fd: number): number;
  /** poll(2) on this thread (timeout 0 for a non-blocking check). */
  poll(fds: Uint8Array, count: number, timeoutMs: number): number;
  /** poll(2) on a worker thread: the event loop keeps running while it waits. */
  pollAsync(fds: Uint8Array, count: number, timeoutMs: number): Promise<number>;
  /** A non-blocking eventfd (Linux), or -1. */
  eventfd(): number;
  /**
   * An unbuffered stdio stream reading a dup of `fd`, or null: `readAllAsync`
   * on it reads on a worker thread until `len` bytes, EOF or EAGAIN.
   */
  openStream(fd: number): Deno.PointerValue;
  readAllAsync(
    stream: NonNullable<Deno.PointerValue>,
    buf: Uint8Array,
    len: number,
  ): Promise<number>;
  /** Closes the stream and its dup (not the original fd). */
  closeStream(stream: NonNullable<Deno.PointerValue>): void;
  errno(): number;
}

/** struct pollfd[] asking POLLIN of each fd, for poll/pollAsync. */
export function pollfds(fdList: readonly number[]): Uint8Array {
  const fds = new Uint8Array(fdList.length * POLLFD_BYTES);
  const view = new DataView(fds.buffer);
  fdList.forEach((fd, i) => {
    view.setInt32(i * POLLFD_BYTES, fd, true);
    view.setInt16(i * POLLFD_BYTES + 4, POLLIN, true);
  });
  return fds;
}

/** The revents poll(2) set in entry `i` of a pollfds() array. */
export function revents(fds: Uint8Array, i: number): number {
  return new DataView(fds.buffer).getInt16(i * POLLFD_BYTES + 6, true);
}

let loaded: Libc | null | undefined;

export function libc(): Libc | null {
  if (loaded === undefined) loaded = open();
  return loaded;
}

function open(): Libc | null {
  const names = libcNames();
  if (!names) return null;
  const { errnoSymbol, F_DUPFD_CLOEXEC, FIONREAD, terminalOpenFlags } = names;
  const s = openLibc(
    {
      write: { parameters: ["i32", "buffer", "usize"], result: "isize" },
      read: { parameters: ["i32", "buffer", "usize"], result: "isize" },
      pread: { parameters: ["i32", "buffer", "usize", "i64"], result: "isize" },
      close: { parameters: ["i32"], result: "i32" },
      sched_yield: { parameters: [], result: "i32" },
      // open is variadic; its mode argument is not passed (no O_CREAT).
      open: { parameters: ["buffer", "i32"], result: "i32" },
      isatty: { parameters: ["i32"], result: "i32" },
      tcgetpgrp: { parameters: ["i32"], result: "i32" },
      // ioctl is variadic; a pointer third argument is passed like a fixed one.
      ioctl: { parameters: ["i32", "u64", "buffer"], result: "i32" },
      poll: { parameters: ["buffer", "u64", "i32"], result: "i32" },
      pollAsync: {
        name: "poll",
        parameters: ["buffer", "u64", "i32"],
        result: "i32",
        nonblocking: true,
      },
      // fcntl is variadic; its int third argument is passed like a fixed
      // one on the ABIs the reactor runs on (Linux x86-64 and arm64).
      fcntl: { parameters: ["i32", "i32", "i32"], result: "i32" },
      fdopen: { parameters: ["i32", "buffer"], result: "pointer" },
      setvbuf: { parameters: ["pointer", "pointer", "i32", "usize"], result: "i32" },
      clearerr: { parameters: ["pointer"], result: "void" },
      freadAsync: {
        name: "fread",
        parameters: ["buffer", "usize", "usize", "pointer"],
        result: "usize",
        nonblocking: true,
      },
      fclose: { parameters: ["pointer"], result: "i32" },
      [errnoSymbol]: { parameters: [], result: "pointer" },
    } as const,
  );
  if (!s) return null;
  const errnoFn = (s as unknown as Record<string, () => Deno.PointerValue>)[errnoSymbol]!;
  const eventfd = names.eventfd ? openEventfd() : null;
  return {
    codes: errnoCodes(),
    write: (fd, buf, len) => Number(s.write(fd, buf, BigInt(len))),
    read: (fd, buf, len) => Number(s.read(fd, buf, BigInt(len))),
    pread: (fd, buf, len, offset) => Number(s.pread(fd, buf, BigInt(len), BigInt(offset))),
    openReadOnly: (path) => {
      const fd = s.open(new TextEncoder().encode(`${path}\0`), 0); // O_RDONLY
      if (fd >= 0) s.fcntl(fd, F_SETFD, FD_CLOEXEC);
      return fd;
    },
    close: (fd) => s.close(fd),
    yieldCpu: () => void s.sched_yield(),
    openTerminal: (path) =>
      terminalOpenFlags === null
        ? -1
        : s.open(new TextEncoder().encode(`${path}\0`), terminalOpenFlags),
    isatty: (fd) => s.isatty(fd) === 1,
    tcgetpgrp: (fd) => s.tcgetpgrp(fd),
    unread: (fd) => {
      const count = new Int32Array(1);
      return s.ioctl(fd, BigInt(FIONREAD), new Uint8Array(count.buffer)) === 0 ? count[0]! : 0;
    },
    setCloexec: (fd) => void s.fcntl(fd, F_SETFD, FD_CLOEXEC),
    poll: (fds, count, timeoutMs) => s.poll(fds, BigInt(count), timeoutMs),
    pollAsync: (fds, count, timeoutMs) => s.pollAsync(fds, BigInt(count), timeoutMs),
    eventfd: () => eventfd ? eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC) : -1,
    openStream: (fd) => {
      const copy = s.fcntl(fd, F_DUPFD_CLOEXEC, 0);
      if (copy < 0) return null;
      const stream = s.fdopen(copy, new TextEncoder().encode("r\0"));
      if (stream === null) {
        s.close(copy);
        return null;
      }
      s.setvbuf(stream, null, IONBF, 0n);
      return stream;
    },
    readAllAsync: async (stream, buf, len) => {
      s.clearerr(stream);
      return Number(await s.freadAsync(buf, 1n, BigInt(len), stream));
    },
    closeStream: (stream) => void s.fclose(stream),
    errno: () => {
      const p = errnoFn();
      return p === null ? 0 : new Deno.UnsafePointerView(p).getInt32();
    },
  };
}

function openEventfd(): ((initval: number, flags: number) => number) | null {
  const s = openLibc({ eventfd: { parameters: ["u32", "i32"], result: "i32" } } as const);
  return s ? (initval, flags) => s.eventfd(initval, flags) : null;
}
