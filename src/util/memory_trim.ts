/**
 * Hands memory the process has freed back to the system (glibc's
 * malloc_trim). glibc keeps freed blocks in its arenas for reuse, so a
 * Deno process's RSS stays at its high-water mark: start-up alone (loading
 * and compiling the npm packages) leaves ~18 MB of it in the server, a
 * flood's parse buffers more (bench/memory.ts). Trimming after such
 * moments is how a multiplexer's resident size follows what it holds.
 *
 * Linux with glibc only (elsewhere nothing happens); needs FFI (`-A`). No
 * npm import: the client uses it too.
 */

import { libcNames, openLibc } from "../platform/libc.ts";
import { later } from "./async.ts";

let trim: (() => void) | null | undefined;

function open(): (() => void) | null {
  if (!libcNames()?.mallocTrim) return null;
  // Null when not glibc, or without FFI permission. On a worker thread: a trim after activity
  // took 5–11 ms of the server's main thread (profiled while keys were typed), a key arriving
  // meanwhile waited for it.
  const s = openLibc(
    { malloc_trim: { parameters: ["usize"], result: "i32", nonblocking: true } } as const,
  );
  return s ? () => void s.malloc_trim(0n).catch(() => {}) : null;
}

/** Returns freed memory to the system now (on a worker thread); false when this platform cannot. */
export function trimMemory(): boolean {
  if (trim === undefined) trim = open();
  if (trim === null) return false;
  trim();
  return true;
}

/**
 * Trims once, `ms` from now (after start-up work), without keeping the
 * process alive, and without loading the global timers (the client calls it).
 */
export function trimLater(ms = 2000): void {
  later(ms, trimMemory);
}

export interface TrimmerOptions {
  /** How long after activity it trims, and at most how often (default 10 s). */
  readonly everyMs?: number;
  /** The first trim, after start-up (default 2 s). */
  readonly firstMs?: number;
  readonly trim?: () => boolean;
}

/**
 * For a long-lived process: trims 2 s after start-up, then `everyMs` after
 * the process was last told of activity (poke(), at most once per
 * `everyMs`). Idle, it sets no timer: a server with nothing to do does not
 * wake (a trim every 10 s was the only wake-up of a server of 8 silent
 * shells, 0.3 context switches a second, bench/server.ts). A trim with little
 * to give back costs ~0.1 ms, the first after 64 sessions printed 5500 lines
 * each ~50 ms on a loaded 2-core machine (measured in process); it gives back
 * what parsing and start-up left. The timers do not keep the process alive.
 */
export class Trimmer implements Disposable {
  readonly #trim: () => boolean;
  readonly #everyMs: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #first: ReturnType<typeof setTimeout>;
  #disposed = false;
  /** Trims done (tests). */
  trims = 0;

  constructor(options: TrimmerOptions = {}) {
    this.#trim = options.trim ?? trimMemory;
    this.#everyMs = options.everyMs ?? 10_000;
    this.#first = setTimeout(() => this.#run(), options.firstMs ?? 2000);
    Deno.unrefTimer(this.#first as unknown as number);
  }

  /** The process did something (allocated): trim `everyMs` from now, unless a trim is due already. */
  poke(): void {
    if (this.#timer !== undefined || this.#disposed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#run();
    }, this.#everyMs);
    Deno.unrefTimer(this.#timer as unknown as number);
  }

  #run(): void {
    this.trims++;
    this.#trim();
  }

  [Symbol.dispose](): void {
    this.#disposed = true;
    clearTimeout(this.#first);
    clearTimeout(this.#timer);
  }
}
