/**
 * Who is at the other end of a hook socket (docs/hooks.md, "Who may write
 * to a hook socket"): Deno gives neither SO_PEERCRED nor an accepted
 * connection's descriptor, so this asks the kernel the way `ss -xp` does.
 * A sock_diag netlink dump (through libc, FFI) lists every connected Unix
 * socket with its path and its peer's inode; the processes of each other
 * lazyshell session are then searched (their open descriptors) for those peer
 * inodes. Linux only; elsewhere, without FFI, or when the kernel refuses,
 * the sender is not known and nothing is refused.
 */

import { openLibc } from "../platform/libc.ts";
import { childProcessIds, openFdTargets } from "../platform/process_files.ts";

const AF_UNIX = 1;
const AF_NETLINK = 16;
const SOCK_DGRAM = 2;
const SOCK_CLOEXEC = 0o2000000;
const NETLINK_SOCK_DIAG = 4;
const SOCK_DIAG_BY_FAMILY = 20;
const NLM_F_REQUEST = 0x1;
const NLM_F_DUMP = 0x300;
const NLMSG_ERROR = 2;
const NLMSG_DONE = 3;
const TCP_ESTABLISHED = 1;
const UDIAG_SHOW_NAME = 1;
const UDIAG_SHOW_PEER = 4;
const UNIX_DIAG_NAME = 0;
const UNIX_DIAG_PEER = 2;

type Symbols = {
  socket(domain: number, type: number, protocol: number): number;
  sendto(
    fd: number,
    buf: Uint8Array,
    len: bigint,
    flags: number,
    to: Uint8Array,
    tolen: number,
  ): number | bigint;
  recv(fd: number, buf: Uint8Array, len: bigint, flags: number): number | bigint;
  close(fd: number): number;
};

let loaded: Symbols | null | undefined;

function symbols(): Symbols | null {
  if (loaded !== undefined) return loaded;
  if (Deno.build.os !== "linux") return (loaded = null);
  loaded = openLibc({
    socket: { parameters: ["i32", "i32", "i32"], result: "i32" },
    sendto: { parameters: ["i32", "buffer", "usize", "i32", "buffer", "u32"], result: "isize" },
    recv: { parameters: ["i32", "buffer", "usize", "i32"], result: "isize" },
    close: { parameters: ["i32"], result: "i32" },
  }) as Symbols | null;
  return loaded;
}

/** One connected Unix socket: its bound path (the listener's, for an accepted one) and its peer. */
export interface UnixSocketEntry {
  readonly inode: number;
  readonly path: string | null;
  readonly peer: number | null;
}

/** Every connected Unix socket the kernel shows us, or null when it cannot be asked. */
export function connectedUnixSockets(): UnixSocketEntry[] | null {
  const s = symbols();
  if (!s) return null;
  const fd = s.socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
  if (fd < 0) return null;
  try {
    // nlmsghdr (16 bytes), then unix_diag_req (24 bytes).
    const req = new Uint8Array(40);
    const v = new DataView(req.buffer);
    v.setUint32(0, req.length, true);
    v.setUint16(4, SOCK_DIAG_BY_FAMILY, true);
    v.setUint16(6, NLM_F_REQUEST | NLM_F_DUMP, true);
    v.setUint32(8, 1, true);
    req[16] = AF_UNIX;
    v.setUint32(20, 1 << TCP_ESTABLISHED, true);
    v.setUint32(28, UDIAG_SHOW_NAME | UDIAG_SHOW_PEER, true);
    v.setUint32(32, 0xffffffff, true); // no cookie
    v.setUint32(36, 0xffffffff, true);
    const kernel = new Uint8Array(12); // sockaddr_nl: the kernel (pid 0)
    new DataView(kernel.buffer).setUint16(0, AF_NETLINK, true);
    if (Number(s.sendto(fd, req, BigInt(req.length), 0, kernel, kernel.length)) !== req.length) {
      return null;
    }
    const out: UnixSocketEntry[] = [];
    const buf = new Uint8Array(64 * 1024);
    const decoder = new TextDecoder();
    for (;;) {
      const n = Number(s.recv(fd, buf, BigInt(buf.length), 0));
      if (n <= 0) return null;
      const d = new DataView(buf.buffer, 0, n);
      for (let off = 0; off + 16 <= n;) {
        const len = d.getUint32(off, true);
        const type = d.getUint16(off + 4, true);
        if (type === NLMSG_DONE) return out;
        if (type === NLMSG_ERROR || len < 32 || off + len > n) return null;
        // unix_diag_msg (16 bytes): family, type, state, pad, inode, cookie; then attributes.
        const inode = d.getUint32(off + 20, true);
        let path: string | null = null;
        let peer: number | null = null;
        for (let a = off + 32; a + 4 <= off + len;) {
          const alen = d.getUint16(a, true);
          const atype = d.getUint16(a + 2, true);
          if (alen < 4) break;
          if (atype === UNIX_DIAG_NAME) {
            path = decoder.decode(buf.subarray(a + 4, a + alen)).replace(/\0+$/, "");
          } else if (atype === UNIX_DIAG_PEER && alen >= 8) peer = d.getUint32(a + 4, true);
          a += (alen + 3) & ~3;
        }
        out.push({ inode, path, peer });
        off += (len + 3) & ~3;
      }
    }
  } catch {
    return null;
  } finally {
    s.close(fd);
  }
}

/** The pids of `root` and everything under it (bounded: a fork bomb is not walked whole). */
function tree(root: number): number[] {
  const out: number[] = [];
  const todo = [root];
  while (todo.length > 0 && out.length < MAX_TREE) {
    const pid = todo.pop()!;
    out.push(pid);
    todo.push(...childProcessIds(pid));
  }
  return out;
}

const MAX_TREE = 4096;

/** How long one sender check may search the other sessions' open files. */
export const SEARCH_BUDGET_MS = 100;

/**
 * The process of `pids` holding a socket with one of `inodes` open, or null;
 * "unknown" once `deadline` (performance.now()) passed.
 */
function holder(
  pids: readonly number[],
  inodes: ReadonlySet<number>,
  deadline: number,
): number | null | "unknown" {
  for (const pid of pids) {
    if (performance.now() > deadline) return "unknown";
    for (const target of openFdTargets(pid)) {
      const m = /^socket:\[(\d+)\]$/.exec(target);
      if (m && inodes.has(Number(m[1]))) return pid;
    }
  }
  return null;
}

/**
 * Whether a process of another session is connected to `path` (the hook
 * socket of session `own`): that session's id and the pid, or null — also
 * when the sender cannot be told (then nothing is refused), which includes a
 * search past `budgetMs`. `sessions`: each running session's id and its
 * child's pid.
 */
export function otherSessionSender(
  path: string,
  own: string,
  sessions: Iterable<{ readonly id: string; readonly pid: number }>,
  list: () => UnixSocketEntry[] | null = connectedUnixSockets,
  budgetMs = SEARCH_BUDGET_MS,
): { readonly session: string; readonly pid: number } | null {
  const sockets = list();
  if (sockets === null) return null;
  const peers = new Set<number>();
  for (const s of sockets) if (s.path === path && s.peer !== null) peers.add(s.peer);
  if (peers.size === 0) return null;
  // Bounded: with many large sessions the search gives up (the sender is then not known).
  const deadline = performance.now() + budgetMs;
  for (const session of sessions) {
    if (session.id === own) continue;
    const pid = holder(tree(session.pid), peers, deadline);
    if (pid === "unknown") return null;
    if (pid !== null) return { session: session.id, pid };
  }
  return null;
}
