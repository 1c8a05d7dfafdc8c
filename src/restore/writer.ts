/**
 * Writes the state file atomically and coalesced (docs/restore.md):
 * `schedule()` asks for a write soon; every request within `delayMs` (and
 * at most `maxWaitMs` after the first) becomes one write of the text
 * `render()` gives at that moment. A write goes to a temporary file in the
 * same directory, is flushed to the disk (fsync), then renamed over the
 * file: a reader — a server started after a `kill -9`, a crash, a power
 * cut — finds the old file or the new one, never a mix.
 *
 * One write at a time: a request that comes during a write is served by
 * the next one. `close()` writes what is pending and stops.
 */

export interface WriterOptions {
  /** The file's text now (called once per write). */
  readonly render: () => string;
  /** Quiet time after a request before writing (default 100 ms). */
  readonly delayMs?: number;
  /** Longest time between a request and its write under steady requests (default 1 s). */
  readonly maxWaitMs?: number;
  /** Flush to the disk before the rename (default true; benchmarks compare without). */
  readonly fsync?: boolean;
  /** One line per failed write (the state is written again at the next change). */
  readonly log?: (line: string) => void;
}

export class StateWriter implements AsyncDisposable {
  readonly file: string;
  /** Writes completed so far. */
  writes = 0;
  /** Microseconds each completed write took (render, write, fsync, rename), the last 1000. */
  readonly costs: number[] = [];
  readonly #options: WriterOptions;
  readonly #temp: string;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #firstRequest: number | null = null;
  #running: Promise<void> | null = null;
  #again = false;
  #closed = false;
  #failed = false;

  constructor(file: string, options: WriterOptions) {
    this.file = file;
    this.#options = options;
    this.#temp = `${file}.tmp-${Deno.pid}`;
  }

  /** A change that matters: the file is written within delayMs (maxWaitMs under steady changes). */
  schedule(): void {
    if (this.#closed) return;
    const now = performance.now();
    this.#firstRequest ??= now;
    const delay = this.#options.delayMs ?? 100;
    const latest = this.#firstRequest + (this.#options.maxWaitMs ?? 1000);
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#start(), Math.max(0, Math.min(delay, latest - now)));
  }

  /** Writes now what is scheduled (or everything, with `always`), and waits for it. */
  async flush(always = false): Promise<void> {
    if (always || this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#start();
    }
    while (this.#running) await this.#running;
  }

  /** Writes what is pending, then stops writing. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.flush();
    this.#closed = true;
  }

  #start(): void {
    this.#timer = undefined;
    this.#firstRequest = null;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#write().finally(() => {
      this.#running = null;
      if (this.#again && !this.#closed) {
        this.#again = false;
        this.#start();
      }
    });
  }

  async #write(): Promise<void> {
    const t0 = performance.now();
    try {
      const data = new TextEncoder().encode(this.#options.render());
      const file = await Deno.open(this.#temp, {
        write: true,
        create: true,
        truncate: true,
        mode: 0o600,
      });
      try {
        for (let n = 0; n < data.length;) n += await file.write(data.subarray(n));
        if (this.#options.fsync !== false) await file.sync();
      } finally {
        file.close();
      }
      await Deno.rename(this.#temp, this.file);
      this.writes++;
      this.costs.push((performance.now() - t0) * 1000);
      if (this.costs.length > 1000) this.costs.shift();
      this.#failed = false;
    } catch (error) {
      // Said once per run of failures: a full disk must not fill the log too.
      if (!this.#failed) {
        this.#options.log?.(`Cannot write ${this.file}: ${(error as Error).message}`);
      }
      this.#failed = true;
    }
  }
}
