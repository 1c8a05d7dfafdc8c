/**
 * A client's terminal, drawn on and read by the server itself, as tmux's
 * server does with the tty its client hands over (docs/architecture.md,
 * "Server and clients"). The client names its terminal in its hello (the
 * path of its stdin, with its device numbers); the server opens that device
 * (O_NOCTTY: never its controlling terminal), reads the keys through the
 * PTY reactor like a session's output, always live, and writes frames with
 * write(2). The client then only relays sizes and signals: each key and
 * each frame skips its process and one socket hop.
 *
 * Linux only (the reactor and /proc: src/platform/terminal.ts): elsewhere, or when the device cannot
 * be opened or is not the client's, the client relays bytes over the socket
 * as before. Ends in order: reading stops first (what is typed after a
 * detach belongs to the shell), then what is queued is written (≤ 500 ms),
 * and only then does the client hear its Exit and restore the terminal.
 *
 * Nor is the terminal read or drawn on while its client's shell has it:
 * the client stopped (SIGSTOP, SIGTSTP) or continued in the background, its
 * job-control shell in the foreground. What is typed then (`fg`) is the
 * shell's, and so is the screen: before each read, and before a write at
 * most every WRITE_CHECK_MS, the client's process is looked up (hello `pid`,
 * checked to have this terminal); when the shell has the terminal, reading
 * pauses and what is drawn is dropped until the client is back in the
 * foreground (its Redraw after SIGCONT, or a check every HELD_CHECK_MS,
 * after which it is drawn whole).
 */

import { fdPath } from "../platform/terminal.ts";
import { threadStatPath } from "../platform/process_files.ts";
import { libc } from "../session/libc.ts";
import { ptyReactor } from "../session/pty_reactor.ts";
import type { PtyHandle } from "../session/pty_reactor.ts";
import { PtyWriter } from "../session/pty_writer.ts";
import { within } from "../util/async.ts";
import { MAX_QUEUED_BYTES } from "./link.ts";
import type { TerminalName } from "../wire/protocol.ts";

/** How long a departing client's last frame may take to be written. */
const FLUSH_MS = 500;
/** While the client's shell has its terminal, how often to look whether the client is back. */
const HELD_CHECK_MS = 500;
/** How long a look at the client before a write holds (frames come up to every 16 ms). */
const WRITE_CHECK_MS = 100;
/** The terminal devices a client may name. */
const TERMINAL_PATH = /^\/dev\/(pts\/\d+|tty[A-Za-z0-9]*)$/;

export interface TtyInput {
  /** Typed text, decoded (a character split between reads arrives whole). */
  data(text: string): void;
  /** The terminal hung up (its window closed, the SSH connection dropped). */
  hangup(): void;
  /**
   * The client is back in the foreground after its shell had the terminal,
   * found by a look rather than by its Redraw: what was dropped meanwhile is
   * to be drawn whole.
   */
  back(): void;
}

export class ClientTty {
  readonly #fd: number;
  readonly #writer: PtyWriter;
  /** The client's process (hello `pid`), when it has this terminal. */
  readonly #client: ClientProcess | null;
  #reading: PtyHandle | null = null;
  #closing: Promise<void> | null = null;
  /** Runs while reading is paused because the client's shell has the terminal. */
  #held: ReturnType<typeof setInterval> | undefined;
  /** When a write last looked at the client (WRITE_CHECK_MS). */
  #lookedAt = -Infinity;
  /** Output dropped while the shell had the terminal. */
  #dropped = false;
  #input: TtyInput | null = null;

  private constructor(fd: number, writer: PtyWriter, client: ClientProcess | null) {
    this.#fd = fd;
    this.#writer = writer;
    this.#client = client;
  }

  /**
   * Opens the terminal the client named when it is that device on that
   * filesystem (the client's stdin, by numbers): null when it is not, or
   * cannot be here.
   */
  static open({ path, device, fs, pid }: TerminalName): ClientTty | null {
    const lib = libc();
    if (!lib || !ptyReactor() || !TERMINAL_PATH.test(path)) return null;
    const fd = lib.openTerminal(path);
    if (fd < 0) return null;
    let same = false;
    try {
      const opened = Deno.statSync(fdPath("self", fd)!);
      same = lib.isatty(fd) && opened.rdev === device && opened.dev === fs;
    } catch { /* not ours to read */ }
    const writer = same ? PtyWriter.open(fd, MAX_QUEUED_BYTES) : null;
    if (!writer) {
      lib.close(fd);
      return null;
    }
    return new ClientTty(fd, writer, pid === undefined ? null : clientOf(pid, device));
  }

  /** Starts reading keys (once the client has put its terminal in raw mode). */
  start(input: TtyInput): void {
    if (this.#reading || this.#closing) return;
    this.#input = input;
    const decoder = new TextDecoder();
    this.#reading = ptyReactor()!.add(this.#fd, {
      data: (bytes) => input.data(decoder.decode(bytes, { stream: true })),
      hangup: () => input.hangup(),
      held: () => this.#shellHasIt() && this.#hold(),
    }, { live: true });
  }

  /** The client's job control has the terminal: the client is stopped, or in the background. */
  #shellHasIt(): boolean {
    const stat = this.#client?.read();
    return stat ? shellHasTerminal(stat) : false;
  }

  /**
   * Reading pauses (the reactor's, once this returns true) and output is
   * dropped until the client is back.
   */
  #hold(): true {
    this.#held ??= setInterval(() => {
      if (this.#shellHasIt()) return;
      const dropped = this.#dropped;
      this.resume();
      if (dropped) this.#input?.back();
    }, HELD_CHECK_MS);
    return true;
  }

  /**
   * The client is back in the foreground (its Redraw after SIGCONT, which
   * draws it whole): its terminal is read and drawn on again.
   */
  resume(): void {
    clearInterval(this.#held);
    this.#held = undefined;
    this.#dropped = false;
    this.#lookedAt = -Infinity;
    if (!this.#closing) this.#reading?.resume();
  }

  /** Output is dropped now: the client's shell has the terminal. */
  #writesHeld(): boolean {
    if (!this.#client) return false;
    if (this.#held !== undefined) return true;
    const now = performance.now();
    if (now - this.#lookedAt < WRITE_CHECK_MS) return false;
    this.#lookedAt = now;
    return this.#shellHasIt() && this.#hold();
  }

  /**
   * Writes `data` after what is queued; false when the terminal has not
   * read MAX_QUEUED_BYTES (its client is to be cut off). After close: dropped.
   */
  write(data: string | Uint8Array): boolean {
    if (this.#closing) return true;
    if (this.#writesHeld()) {
      this.#dropped = true;
      return true;
    }
    return this.#writer.write(data);
  }

  /** Bytes waiting for the terminal to read. */
  get pending(): number {
    return this.#writer.pending;
  }

  /** Resolves once nothing waits for the terminal to read (or it is closed). */
  drained(): Promise<void> {
    return this.#writer.drained();
  }

  /** Drops what waits to be written (the terminal stopped reading), then closes. */
  discard(): Promise<void> {
    this.#writer.close();
    return this.close();
  }

  /** Stops reading, writes what is queued (bounded), closes the device. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      clearInterval(this.#held);
      this.#client?.close();
      await this.#reading?.remove();
      await within(this.#writer.drained(), FLUSH_MS);
      this.#writer.close();
      libc()!.close(this.#fd);
    })();
    return this.#closing;
  }
}

/** What the server needs of the client's process: its line of the process table, in part. */
export interface ClientStat {
  readonly state: string;
  readonly pgrp: number;
  /** Its controlling terminal's device number. */
  readonly ttyNr: number;
  /** The foreground process group of that terminal. */
  readonly tpgid: number;
}

/**
 * The client's main thread's line of the process table (threadStatPath: the
 * process's own line sums every thread's times, ~40 % dearer), read again
 * and again through one fd with pread(2) and only its fields 3–8 parsed:
 * ~5 µs in a loop, ~50 µs cold on the path of a key (docs/architecture.md,
 * Measured: below the echo's noise); opening the file each time through Deno
 * cost ~30 µs more, parsing the whole line ~5 µs more.
 */
class ClientProcess {
  readonly #fd: number;
  readonly #buffer = new Uint8Array(1024);

  constructor(fd: number) {
    this.#fd = fd;
  }

  /** Null once the process is gone (ESRCH). */
  read(): ClientStat | null {
    const n = libc()!.pread(this.#fd, this.#buffer, this.#buffer.length, 0);
    return n > 0 ? parseClientStat(this.#buffer.subarray(0, n)) : null;
  }

  close(): void {
    libc()!.close(this.#fd);
  }
}

/**
 * Fields 3–8 of a stat line (state, ppid, pgrp, session, tty_nr, tpgid),
 * read after the last `)` (the command's name may hold any byte): null when
 * the line is not one.
 */
export function parseClientStat(line: Uint8Array): ClientStat | null {
  let i = line.lastIndexOf(0x29); // ")"
  if (i < 0 || line[i + 1] !== 0x20) return null;
  const state = String.fromCharCode(line[i + 2]!);
  i += 3;
  const fields: number[] = [];
  while (fields.length < 5) {
    if (line[i] !== 0x20) return null;
    i++;
    const negative = line[i] === 0x2d; // "-"
    if (negative) i++;
    let value = 0;
    let digits = 0;
    for (; line[i]! >= 0x30 && line[i]! <= 0x39; i++, digits++) {
      value = value * 10 + line[i]! - 0x30;
    }
    if (digits === 0) return null;
    fields.push(negative ? -value : value);
  }
  const [, pgrp, , ttyNr, tpgid] = fields as [number, number, number, number, number];
  return { state, pgrp, ttyNr, tpgid };
}

/**
 * The client's process when it has `device` as its controlling terminal (a
 * pid from another pid namespace, or one that is not the client's, names
 * another terminal or none): else null, never held.
 */
function clientOf(pid: number, device: number): ClientProcess | null {
  const fd = libc()!.openReadOnly(threadStatPath(pid));
  if (fd < 0) return null;
  const client = new ClientProcess(fd);
  if (client.read()?.ttyNr === device) return client;
  client.close();
  return null;
}

/** Stopped, or not in its terminal's foreground: what is typed there is for someone else. */
export function shellHasTerminal(stat: ClientStat): boolean {
  return stat.state === "T" || stat.state === "t" || stat.tpgid !== stat.pgrp;
}
