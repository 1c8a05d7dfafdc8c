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
  // Null when not glibc, or without FFI permission.
  const s = openLibc({ malloc_trim: { parameters: ["usize"], result: "i32" } } as const);
  return s ? () => void s.malloc_trim(0n) : null;
}

/** Returns freed memory to the system now; false when this platform cannot. */
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
  /** How often it trims (default 10 s). */
  readonly everyMs?: number;
  readonly trim?: () => boolean;
}

/**
 * For a long-lived process: trims 2 s after start-up, then every `everyMs`.
 * A trim with little to give back costs ~0.1 ms, the first after 64
 * sessions printed 5500 lines each ~50 ms on a loaded 2-core machine
 * (measured in process); it gives back what parsing and start-up left.
 * The timers do not keep the process alive.
 */
export class Trimmer implements Disposable {
  readonly #trim: () => boolean;
  #timer: ReturnType<typeof setInterval>;
  #first: ReturnType<typeof setTimeout>;

  constructor(options: TrimmerOptions = {}) {
    this.#trim = options.trim ?? trimMemory;
    this.#first = setTimeout(() => this.#trim(), 2000);
    this.#timer = setInterval(() => this.#trim(), options.everyMs ?? 10_000);
    for (const t of [this.#first, this.#timer]) Deno.unrefTimer(t as unknown as number);
  }

  [Symbol.dispose](): void {
    clearTimeout(this.#first);
    clearInterval(this.#timer);
  }
}
