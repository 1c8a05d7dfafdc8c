/**
 * One non-blocking read of a PTY master for the reactor (pty_reactor.ts): the read(2) loop,
 * with its shortcut for a small read, and telling a hang-up (EOF, or EIO once the child side
 * is closed) from "nothing more for now". Apart so the reactor keeps only scheduling.
 */

import { type Libc, pollfds, POLLHUP, revents } from "./libc.ts";

/** A PTY read returns at most ~4 KiB; one this much smaller took all there was. */
const SMALL_READ = 1024;

/** What readPty read: `bytes` at the start of the buffer; `hungUp` once no more will come. */
export interface PtyRead {
  readonly bytes: number;
  readonly hungUp: boolean;
}

/** Reads what `fd` holds into `buffer` (at most its length) without blocking. */
export function readPty(lib: Libc, fd: number, buffer: Uint8Array): PtyRead {
  let n = 0;
  let hungUp = false;
  while (n < buffer.length) {
    const r = lib.read(fd, buffer.subarray(n), buffer.length - n);
    if (r > 0) {
      n += r;
      // A small read emptied the PTY (a spinner frame, an echo): spare the
      // read that would only say EAGAIN — a syscall costs ~40 µs on the
      // VMs we measure on; bytes that come later wake the next poll.
      if (r < SMALL_READ) break;
      continue;
    }
    const errno = r === 0 ? 0 : lib.errno();
    if (errno === lib.codes.EINTR) continue;
    // EOF, or EIO once the child side is closed. errno is read after the
    // call returned to JS: confirm with poll(2) before giving up on the fd.
    if (errno !== lib.codes.EAGAIN) hungUp = r === 0 || closedOnOtherSide(lib, fd);
    break;
  }
  return { bytes: n, hungUp };
}

function closedOnOtherSide(lib: Libc, fd: number): boolean {
  const fds = pollfds([fd]);
  return lib.poll(fds, 1, 0) > 0 && (revents(fds, 0) & POLLHUP) !== 0;
}
