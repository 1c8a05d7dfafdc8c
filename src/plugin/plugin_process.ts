/**
 * One run of a plugin's process (docs/plugin-protocol.md): spawned in its own group, its stdin
 * fed from a bounded queue, its stdout cut into JSON Lines, its stderr kept as a tail. The
 * plugin host (host.ts) owns the lifecycle and decides what a line means; this file only moves
 * bytes, so a stuck pipe or a stray descendant holding stdout never hangs the host.
 *
 * A run outlived by a newer generation (a restart) is stale: its lines and exit are ignored and
 * its group's leftovers killed when its leader exits.
 *
 * Frames reach the host at the display rate at most (FRAME_INTERVAL_MS): a frame followed by
 * another frame, with no other message between, is dropped unparsed, and while a frame waits for
 * its tick stdout is not read — a plugin redrawing in a busy loop blocks on its full pipe instead
 * of costing the server a core. Every other message is passed on at once, in order.
 */

import { messageOf } from "../errors.ts";
import { LineSplitter } from "../util/lines.ts";
import type { TailBuffer } from "./lines.ts";
import type { GroupProcess, GroupSpawner, GroupStatus } from "./procgroup.ts";
import { MAX_LINE_BYTES } from "./protocol.ts";

/** What a run tells its host. */
export interface RunListener {
  /** The run is still the tab's current generation. */
  current(): boolean;
  /** Nothing it says counts any more (it failed): stop reading its stdout. */
  deaf(): boolean;
  line(text: string): void;
  /** A line over 1 MiB: `bytes` read without a newline. */
  oversize(bytes: number): void;
  /** The leader exited (only reported while the run is current). */
  exited(exit: GroupStatus): void;
}

/** The TUI draws at most one frame a tick (src/tui/renderer.ts FRAME_MS): a plugin's frames no faster. */
export const FRAME_INTERVAL_MS = 16;

/** A line that is a frame message (`{"type":"frame",…`, as plugins write it): may be coalesced. */
const FRAME_LINE = /^\s*\{\s*"type"\s*:\s*"frame"\s*[,}]/;

/** How long a stop waits for stdout/stderr to end once the leader has exited. */
const SETTLE_MS = 500;

const encoder = new TextEncoder();

/**
 * Spawns `command serve` with the plugin's environment (its data folder created first), or
 * returns why it could not start.
 */
export function spawnPlugin(
  spawn: GroupSpawner,
  command: readonly string[],
  env: Record<string, string>,
  stderr: TailBuffer,
  listener: RunListener,
): PluginProcess | { readonly reason: string } {
  try {
    Deno.mkdirSync(env.LAZYSHELL_DATA_DIR!, { recursive: true });
  } catch { /* the plugin will say if it needs it */ }
  try {
    return new PluginProcess(
      spawn([...command, "serve"], { env, stdin: "piped" }),
      stderr,
      listener,
    );
  } catch (error) {
    return {
      reason: error instanceof Deno.errors.NotFound ? `${command[0]} not found` : messageOf(error),
    };
  }
}

export class PluginProcess {
  readonly #writer: WritableStreamDefaultWriter<Uint8Array> | null;
  readonly #queue: string[] = [];
  #writing = false;
  #stdinClosed = false;
  readonly #readers: ReadableStreamDefaultReader<Uint8Array>[];
  /** Its exit, stdout and stderr are all done. */
  readonly #done: Promise<void>;

  constructor(
    readonly child: GroupProcess,
    private readonly stderr: TailBuffer,
    private readonly listener: RunListener,
  ) {
    this.#writer = child.stdin?.getWriter() ?? null;
    const readers = [child.stdout.getReader(), child.stderr.getReader()];
    this.#readers = readers;
    const exited = child.status.then((exit) => {
      if (listener.current()) listener.exited(exit);
      else child.killLeftovers();
    });
    this.#done = Promise.all([exited, this.#readStdout(readers[0]!), this.#readStderr(readers[1]!)])
      .then(() => this.#writer?.releaseLock());
  }

  /** Its stdin takes lines (it is piped and not closed). */
  get writable(): boolean {
    return !this.#stdinClosed && this.#writer !== null;
  }

  /**
   * Queues one line for its stdin; false (nothing written) once `max` lines wait, for the host
   * to treat as a stuck plugin.
   */
  write(line: string, max: number): boolean {
    this.#queue.push(line);
    if (this.#queue.length >= max) return false;
    this.#pump();
    return true;
  }

  /** The queued count, for the host's report when it is full. */
  get queued(): number {
    return this.#queue.length;
  }

  closeStdin(): void {
    if (this.#stdinClosed || this.#writer === null) return;
    this.#stdinClosed = true;
    const pending = this.#writing || this.#queue.length > 0;
    this.#queue.length = 0;
    // A write stuck on a full pipe would block close(); abort drops it and closes the fd.
    (pending ? this.#writer.abort() : this.#writer.close()).catch(() => {});
  }

  /**
   * After the host asked it to stop: waits for the leader's exit and its streams, then closes
   * stdin. After the leader exits, leftovers are killed; a descendant that escaped the group
   * (setsid) may still hold stdout: stop reading it then.
   */
  async stopped(): Promise<void> {
    await this.child.status;
    const settled = await Promise.race([
      this.#done.then(() => true),
      new Promise<false>((resolve) => {
        const t = setTimeout(() => resolve(false), SETTLE_MS);
        this.#done.finally(() => clearTimeout(t));
      }),
    ]);
    if (!settled) {
      for (const reader of this.#readers) reader.cancel().catch(() => {});
      await this.#done;
    }
    this.closeStdin();
  }

  async #readStdout(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const splitter = new LineSplitter(MAX_LINE_BYTES);
    // The latest frame not passed on yet, and when the last one was.
    let held: string | null = null;
    let lastFrame = -Infinity;
    const passFrame = () => {
      if (held !== null && this.listener.current()) this.listener.line(held);
      held = null;
      lastFrame = performance.now();
    };
    try {
      while (true) {
        const { value, done } = await reader.read();
        const items = done ? splitter.end() : splitter.push(value);
        for (const item of items) {
          if (!this.listener.current()) continue;
          if (item.type === "line" && FRAME_LINE.test(item.text)) {
            held = item.text; // an earlier frame not passed on is superseded
            continue;
          }
          if (held !== null) passFrame(); // in order: the frame before what follows it
          if (item.type === "oversize") this.listener.oversize(item.bytes);
          else this.listener.line(item.text);
        }
        if (done) {
          passFrame();
          break;
        }
        if (held !== null) {
          const wait = lastFrame + FRAME_INTERVAL_MS - performance.now();
          // Not reading meanwhile: a later frame replaces this one, or the pipe fills.
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          passFrame();
        }
        if (this.listener.current() && this.listener.deaf()) {
          // Nothing it says counts any more: stop reading (a flood then blocks on
          // its full pipe instead of burning our CPU) until the kill lands.
          await reader.cancel().catch(() => {});
          break;
        }
      }
    } catch { /* cancelled or broken pipe: the exit event says the rest */ }
  }

  async #readStderr(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        this.stderr.push(value);
      }
    } catch { /* cancelled */ }
  }

  #pump(): void {
    const writer = this.#writer;
    if (this.#writing || writer === null) return;
    this.#writing = true;
    (async () => {
      while (this.#queue.length > 0 && !this.#stdinClosed) {
        try {
          await writer.write(encoder.encode(this.#queue[0]!));
        } catch {
          this.#queue.length = 0; // the plugin is gone; its exit is reported separately
          break;
        }
        this.#queue.shift();
      }
      this.#writing = false;
    })();
  }
}
