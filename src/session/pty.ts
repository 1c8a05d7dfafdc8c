/**
 * node-pty behind a small interface, with flow control (docs/architecture.md, Platform facts):
 * node-pty delivers ~90 MB/s, xterm parses ~35–60 MB/s, so the PTY is
 * paused while more than HIGH_WATER bytes wait to be parsed and resumed
 * below LOW_WATER. A flood therefore never grows memory without limit.
 */

import * as nodePty from "@lydell/node-pty";
import { PtyWriter } from "./pty_writer.ts";
import { spawnPolled } from "./pty_polled.ts";
import { ptyReactor } from "./pty_reactor.ts";

export const HIGH_WATER = 1 << 20;
export const LOW_WATER = 1 << 18;

export interface PtySpawn {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly cols: number;
  readonly rows: number;
}

export interface PtyExit {
  readonly exitCode: number;
  /** Signal number, or 0 when the process exited by itself. */
  readonly signal: number;
}

export interface Pty {
  readonly pid: number;
  /** False when refused: the child's input queue is full (nothing of `data` was queued). */
  write(data: string): boolean | void;
  resize(cols: number, rows: number): void;
  kill(signal?: Deno.Signal): void;
  pause(): void;
  resume(): void;
  onData(listener: (data: string) => void): void;
  onExit(listener: (exit: PtyExit) => void): void;
  /** Optional: read the child's answer to input just written if it comes within `ms` (blocks). */
  awaitEcho?(ms: number): void;
  /** Optional: the terminal's foreground process group (tcgetpgrp), -1 when unknown. */
  foregroundGroup?(): number;
  /** Optional: output the child wrote that has not reached onData yet (unknown: false). */
  behind?(): boolean;
  /**
   * Optional: input bytes the child has not read yet, queued here or in its
   * terminal (null: the terminal's queue cannot be read).
   */
  unreadInput?(): number | null;
}

export function spawnPty(spec: PtySpawn): Pty {
  const reactor = ptyReactor();
  return reactor ? spawnPolled(spec, reactor) : spawnNodePty(spec);
}

/** node-pty's own streams: Windows, macOS, or no FFI. */
export function spawnNodePty(spec: PtySpawn): Pty {
  const child = nodePty.spawn(spec.file, [...spec.args], {
    name: spec.env.TERM ?? "xterm-256color",
    cols: spec.cols,
    rows: spec.rows,
    cwd: spec.cwd,
    env: spec.env,
  });
  // node-pty's own write stalls on a full PTY buffer under Deno (pty_writer.ts).
  const writer = PtyWriter.open((child as { fd?: number }).fd);
  child.onExit(() => writer?.close());
  return {
    pid: child.pid,
    write: (data) => writer ? writer.write(data) : child.write(data),
    resize: (cols, rows) => child.resize(cols, rows),
    kill: (signal) => child.kill(signal),
    pause: () => child.pause(),
    resume: () => child.resume(),
    onData: (listener) => void child.onData(listener),
    onExit: (listener) =>
      void child.onExit((e) => listener({ exitCode: e.exitCode, signal: e.signal ?? 0 })),
  };
}

/**
 * Feeds PTY output to a sink that acknowledges parsed bytes, pausing the PTY
 * above HIGH_WATER pending bytes and resuming below LOW_WATER.
 */
export class FlowControl {
  #pending = 0;
  #paused = false;
  #maxPending = 0;
  #pauses = 0;

  constructor(private readonly pty: Pick<Pty, "pause" | "resume">) {}

  get pending(): number {
    return this.#pending;
  }

  get paused(): boolean {
    return this.#paused;
  }

  /** Largest backlog seen and how often the PTY was paused (tests, diagnostics). */
  get stats(): { readonly maxPending: number; readonly pauses: number } {
    return { maxPending: this.#maxPending, pauses: this.#pauses };
  }

  /** Call with the size of each chunk handed to the parser. */
  queued(bytes: number): void {
    this.#pending += bytes;
    this.#maxPending = Math.max(this.#maxPending, this.#pending);
    if (!this.#paused && this.#pending > HIGH_WATER) {
      this.#paused = true;
      this.#pauses++;
      this.pty.pause();
    }
  }

  /** Call when the parser has applied a chunk. */
  parsed(bytes: number): void {
    this.#pending -= bytes;
    if (this.#paused && this.#pending < LOW_WATER) {
      this.#paused = false;
      this.pty.resume();
    }
  }
}
