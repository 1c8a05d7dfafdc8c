/**
 * Reads every PTY master of the process with poll(2) and read(2) through FFI
 * (Linux), so that many busy sessions cost one event-loop wake-up per tick
 * rather than one per chunk. Why: a wake-up of Deno's event loop costs about
 * 0.1 ms of CPU, and 8 spinners at 10 Hz read through node-pty's streams were
 * 80 wake-ups a second before anything was parsed (bench/tui_cpu.ts, docs/tui.md).
 *
 * Two loops share the fds, each fd in one of them:
 * - live: fds written to in the last LIVE_MS (a typed key's echo, the answer
 *   to a terminal query) wait in poll(2) on a worker thread and are read the
 *   moment bytes arrive;
 * - batch: every other fd. Idle, it waits in poll(2) on a worker thread until
 *   any fd has bytes; busy, it reads whatever arrived in all of them at each
 *   point of the shared timer grid (util/ticker.ts, 40 ms: detection's
 *   latency budget is 100 ms at p95), with poll timeout 0 on this thread;
 *   after QUIET_TICKS empty ticks it is idle again, so an idle lazyshell
 *   does not wake at all.
 * A drain (pty_read.ts) of FLOOD_BYTES or more (a flood: output faster than
 * the grid reads it) hands the fd to a read-ahead reader on a worker thread
 * until a grid period brings less than that; what it reads is parsed in
 * pieces within a budget all floods share, so the rest of the process is
 * served between them (pty_flood.ts, flood_budget.ts).
 *
 * An fd leaves through `remove()`, which resolves once no worker poll holds
 * it any more: only then may its owner close it.
 */

import { ticker } from "../util/ticker.ts";
import { fault, type Owner } from "../util/guard.ts";
import { type Libc, libc, POLL_READY, pollfds, POLLIN, revents } from "./libc.ts";
import { floodBudget } from "./flood_budget.ts";
import { BUFFER_BYTES, FLOOD_BYTES, FloodParser, type FloodRead, readFlood } from "./pty_flood.ts";
import { readPty } from "./pty_read.ts";

/** How long after a write an fd is read without batching. */
export const LIVE_MS = 1000;
const QUIET_TICKS = 3;
/** The most one drain reads (the rest is the flood reader's, or flush's next drain). */
const DRAIN_BYTES = 32 * 1024;

export interface PtySource {
  /** Bytes read from the fd; the array is only valid during the call. */
  data(bytes: Uint8Array): void;
  /** The other side is closed (read gave EOF or EIO): no more data will come. */
  hangup(): void;
  /**
   * Asked before each read: true when the bytes waiting are not this
   * reader's now (a client's terminal while its shell has it,
   * src/server/client_tty.ts). The fd is then not read and paused until
   * `resume()`.
   */
  held?(): boolean;
}

interface Entry {
  readonly fd: number;
  readonly source: PtySource;
  paused: boolean;
  liveUntil: number;
  gone: boolean;
  /** Read gave EOF or EIO: never polled again. */
  hungUp: boolean;
  /** The owner is collecting the last bytes before removing the fd. */
  closing: boolean;
  /** The flood reader of this fd while it runs (then the loops leave the fd alone). */
  flood: FloodRead | null;
  stream: Deno.PointerValue;
  /** A pollfd of this fd alone, for awaitData (made once: it runs for every typed key). */
  readonly pollfd: Uint8Array;
}

interface Loop {
  readonly wakeFd: number;
  running: boolean;
  /** fds of the worker poll in flight. */
  polled: ReadonlySet<number>;
  /** Called when the worker poll in flight returns. */
  released: Array<() => void>;
}

export interface PtyHandle {
  /** Marks the fd live for LIVE_MS: its next bytes are read without batching. */
  touch(): void;
  pause(): void;
  resume(): void;
  /** Reads what is still buffered, even while paused (the child has exited). */
  flush(): Promise<void>;
  /**
   * Waits up to `ms` on this thread for the child's answer to input just
   * written (a typed key's echo) and reads it at once: the echo is drawn in
   * the same event-loop turn as the key, with no worker-thread hop.
   */
  awaitData(ms: number): void;
  /** Stops reading; resolves when the fd may be closed. */
  remove(): Promise<void>;
  /** Output written by the child and not delivered yet: in the kernel, or in a flood read. */
  behind(): boolean;
}

export class PtyReactor {
  readonly #libc: Libc;
  readonly #buffer = new Uint8Array(BUFFER_BYTES);
  readonly #entries = new Map<number, Entry>();
  readonly #live: Loop;
  readonly #batch: Loop;
  #tick: { timer: Disposable; resolve: () => void } | null = null;
  /**
   * The entries whose bytes are being delivered, outermost first. A
   * listener may await another fd's answer (a key read from a person's
   * terminal, written to a session, its echo awaited): one nested drain,
   * into its own buffer, of an fd not being delivered already.
   */
  readonly #delivering: Entry[] = [];
  readonly #nestedBuffer = new Uint8Array(DRAIN_BYTES);
  readonly #budget = floodBudget;
  readonly #floods = new FloodParser(floodBudget);

  constructor(lib: Libc, liveWake: number, batchWake: number) {
    this.#libc = lib;
    this.#live = { wakeFd: liveWake, running: false, polled: new Set(), released: [] };
    this.#batch = { wakeFd: batchWake, running: false, polled: new Set(), released: [] };
  }

  /**
   * Reads `fd` for `source`. `live`: always read without batching (a
   * person's terminal: every key is read the moment it arrives).
   */
  add(fd: number, source: PtySource, options: { live?: boolean } = {}): PtyHandle {
    const entry: Entry = {
      fd,
      source: contained(source, { name: `terminal fd ${fd}` }),
      paused: false,
      liveUntil: options.live ? Infinity : 0,
      gone: false,
      hungUp: false,
      closing: false,
      flood: null,
      stream: null,
      pollfd: pollfds([fd]),
    };
    this.#entries.set(fd, entry);
    this.#changed(options.live ? this.#live : this.#batch);
    return {
      touch: () => this.#touch(entry),
      pause: () => void (entry.paused = true),
      resume: () => {
        if (!entry.paused) return;
        entry.paused = false;
        this.#changed(this.#isLive(entry) ? this.#live : this.#batch);
      },
      flush: async () => {
        // The child is gone: a flood reader stops after the read in flight
        // (a grandchild still flooding must not hold the exit back).
        entry.closing = true;
        await entry.flood?.done;
        // What is left, within the floods' budget like any other output.
        while (this.#drainOne(entry, true) >= DRAIN_BYTES) await this.#budget.ready();
      },
      remove: () => this.#remove(entry),
      // A flood waiting for its writer has nothing in flight: only the kernel's bytes count.
      behind: () =>
        !entry.gone &&
        ((entry.flood !== null && !entry.flood.waiting) || this.#libc.unread(fd) > 0),
      awaitData: (ms) => {
        if (this.#delivering.length > 1 || this.#delivering.includes(entry)) return;
        if (entry.gone || entry.paused || entry.hungUp || entry.flood) return;
        if (this.#libc.poll(entry.pollfd, 1, ms) > 0) this.#drainOne(entry, false);
      },
    };
  }

  #isLive(entry: Entry): boolean {
    return entry.liveUntil > performance.now();
  }

  #touch(entry: Entry): void {
    if (entry.liveUntil === Infinity) return;
    const wasLive = this.#isLive(entry);
    entry.liveUntil = performance.now() + LIVE_MS;
    if (!wasLive && !entry.gone) this.#changed(this.#live);
  }

  #remove(entry: Entry): Promise<void> {
    if (entry.gone) return Promise.resolve();
    entry.gone = true;
    this.#entries.delete(entry.fd);
    if (this.#tick && this.#members(false).length === 0) this.#endTick();
    const holders = [this.#live, this.#batch].filter((l) => l.polled.has(entry.fd));
    return Promise.all([
      entry.flood?.done,
      ...holders.map((loop) =>
        new Promise<void>((resolve) => {
          loop.released.push(resolve);
          this.#wake(loop);
        })
      ),
    ]).then(() => {
      if (entry.stream !== null) this.#libc.closeStream(entry.stream);
      entry.stream = null;
    });
  }

  /** Membership of `loop` changed: start it, or make its worker poll start over. */
  #changed(loop: Loop): void {
    if (!loop.running) {
      loop.running = true;
      const run = loop === this.#live ? this.#runLive() : this.#runBatch();
      run.catch((e) =>
        queueMicrotask(() => {
          throw e;
        })
      );
    } else if (loop.polled.size > 0) this.#wake(loop);
  }

  #wake(loop: Loop): void {
    const one = new Uint8Array(8);
    one[0] = 1;
    this.#libc.write(loop.wakeFd, one, 8);
  }

  #members(live: boolean): Entry[] {
    const now = performance.now();
    const out: Entry[] = [];
    for (const e of this.#entries.values()) {
      if (!e.paused && !e.hungUp && e.flood === null && (e.liveUntil > now) === live) out.push(e);
    }
    return out;
  }

  async #runLive(): Promise<void> {
    const loop = this.#live;
    try {
      for (;;) {
        const members = this.#members(true);
        if (members.length === 0) break;
        const expires = Math.min(...members.map((e) => e.liveUntil)) - performance.now();
        const timeout = expires === Infinity ? -1 : Math.max(1, Math.ceil(expires));
        const ready = await this.#pollWorker(loop, members, timeout);
        this.#drain(ready, true);
        if (members.some((e) => !e.gone && !this.#isLive(e))) this.#changed(this.#batch);
      }
    } finally {
      loop.running = false;
    }
  }

  async #runBatch(): Promise<void> {
    const loop = this.#batch;
    let busy = false;
    let quiet = 0;
    let next: Promise<void> | null = null;
    try {
      for (;;) {
        const members = this.#members(false);
        if (members.length === 0) break;
        let ready: Entry[];
        if (busy) {
          await (next ?? this.#sleepTick());
          // The next tick is booked before reading, so that what the reading
          // schedules on the grid shares its timer.
          next = this.#sleepTick();
          ready = this.#pollNow(this.#members(false));
        } else {
          ready = await this.#pollWorker(loop, members, -1);
        }
        const bytes = this.#drain(ready, false);
        if (bytes > 0) {
          busy = true;
          quiet = 0;
        } else if (busy && ++quiet >= QUIET_TICKS) busy = false;
        if (!busy && next) {
          this.#cancelTick();
          next = null;
        }
      }
    } finally {
      this.#cancelTick();
      loop.running = false;
    }
  }

  #sleepTick(): Promise<void> {
    return new Promise((resolve) => {
      const timer = ticker.after(1, () => this.#endTick());
      this.#tick = { timer, resolve };
    });
  }

  #cancelTick(): void {
    this.#tick?.timer[Symbol.dispose]();
    this.#tick = null;
  }

  #endTick(): void {
    const tick = this.#tick;
    this.#tick = null;
    if (!tick) return;
    tick.timer[Symbol.dispose]();
    tick.resolve();
  }

  #readyOf(fds: Uint8Array, members: readonly Entry[]): Entry[] {
    return members.filter((_, i) => (revents(fds, i) & POLL_READY) !== 0);
  }

  async #pollWorker(loop: Loop, members: readonly Entry[], timeoutMs: number): Promise<Entry[]> {
    const fds = pollfds([...members.map((e) => e.fd), loop.wakeFd]);
    loop.polled = new Set(members.map((e) => e.fd));
    let n: number;
    try {
      n = await this.#libc.pollAsync(fds, members.length + 1, timeoutMs);
    } finally {
      loop.polled = new Set();
      for (const release of loop.released.splice(0)) release();
    }
    if (n <= 0) return [];
    if (revents(fds, members.length) & POLLIN) {
      this.#libc.read(loop.wakeFd, new Uint8Array(8), 8);
    }
    return this.#readyOf(fds, members);
  }

  #pollNow(members: readonly Entry[]): Entry[] {
    if (members.length === 0) return [];
    const fds = pollfds(members.map((e) => e.fd));
    return this.#libc.poll(fds, members.length, 0) > 0 ? this.#readyOf(fds, members) : [];
  }

  /** Reads the ready fds that still belong to this loop; a flood gets its own reader. */
  #drain(ready: readonly Entry[], live: boolean): number {
    let bytes = 0;
    for (const entry of ready) {
      if (entry.gone || entry.paused || entry.flood || this.#isLive(entry) !== live) continue;
      // Floods have spent this turn's share: the rest stay ready for the next tick.
      if (!live && this.#budget.ready() !== null) break;
      const n = this.#drainOne(entry, false);
      bytes += n;
      if (n >= FLOOD_BYTES && !entry.paused) this.#startFlood(entry);
    }
    return bytes;
  }

  /** A flood: a read-ahead reader takes the fd until it ends (pty_flood.ts), then the loops. */
  #startFlood(entry: Entry): void {
    entry.stream ??= this.#libc.openStream(entry.fd);
    const stream = entry.stream;
    if (stream === null) return;
    const more = () => !entry.gone && !entry.paused && !entry.closing;
    const flood = readFlood(
      this.#libc,
      entry.fd,
      stream,
      more,
      (bytes) => this.#floods.parse(entry, bytes),
    );
    entry.flood = flood;
    void flood.done.finally(() => {
      if (entry.flood === flood) entry.flood = null;
      if (!entry.gone) this.#changed(this.#isLive(entry) ? this.#live : this.#batch);
    });
  }

  #drainOne(entry: Entry, force: boolean): number {
    if (entry.gone || entry.hungUp || (entry.paused && !force)) return 0;
    if (!force && entry.source.held?.()) {
      entry.paused = true;
      return 0;
    }
    // Past DRAIN_BYTES it is a flood: the flood reader (or flush) takes the rest, in pieces.
    const buffer = this.#delivering.length > 0
      ? this.#nestedBuffer
      : this.#buffer.subarray(0, DRAIN_BYTES);
    const { bytes: n, hungUp } = readPty(this.#libc, entry.fd, buffer);
    if (n > 0) {
      this.#delivering.push(entry);
      try {
        this.#budget.spend(() => entry.source.data(buffer.subarray(0, n)));
      } finally {
        this.#delivering.pop();
      }
    }
    if (hungUp && !entry.gone && !entry.hungUp) {
      entry.hungUp = true; // nothing more to poll; the owner removes it
      entry.source.hangup();
    }
    return n;
  }
}

/**
 * The source's callbacks as entry points (util/guard.ts): what one fd's
 * reader throws ends there, and the loops go on reading every other fd.
 */
function contained(source: PtySource, owner: Owner): PtySource {
  return {
    data: (bytes) => {
      try {
        source.data(bytes);
      } catch (error) {
        fault(owner, "reading its output", error);
      }
    },
    hangup: () => {
      try {
        source.hangup();
      } catch (error) {
        fault(owner, "its hang-up", error);
      }
    },
    ...(source.held ? { held: source.held.bind(source) } : {}),
  };
}

let shared: PtyReactor | null | undefined;

/** The process's reactor, or null where it cannot run (not Linux, no FFI). */
export function ptyReactor(): PtyReactor | null {
  if (shared !== undefined) return shared;
  shared = null;
  const lib = Deno.build.os === "linux" ? libc() : null;
  if (!lib) return shared;
  const live = lib.eventfd();
  const batch = lib.eventfd();
  if (live >= 0 && batch >= 0) shared = new PtyReactor(lib, live, batch);
  return shared;
}
