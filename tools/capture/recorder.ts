/**
 * Writes one capture folder, in the format of fixtures/captures/README.md:
 *   output.raw     every byte the CLI wrote to the PTY
 *   chunks.jsonl   {t_ms, off, len, b64} per PTY read
 *   input.jsonl    {t_ms, byte_offset_in_raw, src, note, b64, text} per write to the PTY, and
 *                  {…, src: "resize", cols, rows} per resize of the terminal
 *   events.jsonl   {t_ms, byte_offset_in_raw, type, ...} everything else
 *   truth.json     {capture, states, note, timeline[{t_ms, byte_offset_in_raw, state, note,
 *                  source, screen_settled_offset}]}
 * `t_ms` is ms since the recorder started (meta.started_epoch_ms). Streams are
 * appended as they happen, so a killed run still leaves its evidence.
 */

export type TruthState = "starting" | "idle" | "working" | "blocked" | "done" | "error";
export type LabelSource = "driver" | "mock" | "screen";
/** Who wrote to the PTY; `resize` is no write: the terminal was resized (its `cols`, `rows`). */
export type InputSource = "user" | "terminal-reply" | "osc7501-reply" | "resize";

export interface TruthEntry {
  readonly t_ms: number;
  readonly byte_offset_in_raw: number;
  readonly state: TruthState;
  readonly note: string;
  readonly source: LabelSource;
  /** Where this state is fully drawn: the output ~1.2 s later, or just before the next label. */
  screen_settled_offset?: number;
}

/** A point in the capture: time and byte offset. */
export interface At {
  readonly t_ms: number;
  readonly off: number;
}

interface Chunk {
  readonly t_ms: number;
  readonly off: number;
  readonly len: number;
}

const encoder = new TextEncoder();
const SETTLE_MS = 1200;

function b64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

export class Recorder implements Disposable {
  readonly dir: string;
  readonly startedEpochMs = Date.now();
  readonly timeline: TruthEntry[] = [];
  #raw: Uint8Array[] = [];
  #chunks: Chunk[] = [];
  #rawLen = 0;
  #files = new Map<string, Deno.FsFile>();
  #log: (line: string) => void;

  private constructor(dir: string, log: (line: string) => void = () => {}) {
    this.dir = dir;
    this.#log = log;
  }

  static create(dir: string, log?: (line: string) => void): Recorder {
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    Deno.mkdirSync(dir, { recursive: true });
    return new Recorder(dir, log);
  }

  now(): number {
    return Date.now() - this.startedEpochMs;
  }

  get rawLength(): number {
    return this.#rawLen;
  }

  here(): At {
    return { t_ms: this.now(), off: this.#rawLen };
  }

  /** Records one PTY read; returns where it ends. */
  output(data: string | Uint8Array): At {
    const bytes = typeof data === "string" ? encoder.encode(data) : data;
    const t_ms = this.now();
    const off = this.#rawLen;
    this.#append("chunks.jsonl", { t_ms, off, len: bytes.length, b64: b64(bytes) });
    this.#raw.push(bytes);
    this.#chunks.push({ t_ms, off, len: bytes.length });
    this.#rawLen += bytes.length;
    return { t_ms, off: this.#rawLen };
  }

  input(data: string, src: InputSource, note: string): void {
    this.#append("input.jsonl", {
      t_ms: this.now(),
      byte_offset_in_raw: this.#rawLen,
      src,
      note,
      b64: b64(encoder.encode(data)),
      text: data,
    });
  }

  /** The terminal was resized to `cols` x `rows` here (input.jsonl, src `resize`). */
  resize(cols: number, rows: number): void {
    this.#append("input.jsonl", {
      t_ms: this.now(),
      byte_offset_in_raw: this.#rawLen,
      src: "resize",
      note: `terminal resized to ${cols}x${rows}`,
      cols,
      rows,
    });
  }

  event(type: string, data: Record<string, unknown> = {}): void {
    this.#append("events.jsonl", {
      t_ms: this.now(),
      byte_offset_in_raw: this.#rawLen,
      type,
      ...data,
    });
  }

  /** Appends a line to any other JSONL stream of the capture (mock requests, SSE). */
  jsonl(file: string, record: Record<string, unknown>): void {
    this.#append(file, record);
  }

  /** From `at` (default: now) on, the agent is in `state`. */
  label(state: TruthState, note: string, source: LabelSource, at: At = this.here()): TruthEntry {
    const entry: TruthEntry = { t_ms: at.t_ms, byte_offset_in_raw: at.off, state, note, source };
    this.timeline.push(entry);
    this.timeline.sort((a, b) => a.byte_offset_in_raw - b.byte_offset_in_raw || a.t_ms - b.t_ms);
    this.event("label", { state, note, source, label_offset: at.off });
    this.#log(`[${(at.t_ms / 1000).toFixed(1)}s @${at.off}] ${state.padEnd(8)} ${source}: ${note}`);
    return entry;
  }

  writeJson(file: string, data: unknown): void {
    Deno.writeTextFileSync(`${this.dir}/${file}`, JSON.stringify(data, null, 1) + "\n");
  }

  /** Writes output.raw and truth.json and closes the streams. */
  finish(capture: string): void {
    const raw = new Uint8Array(this.#rawLen);
    let pos = 0;
    for (const part of this.#raw) {
      raw.set(part, pos);
      pos += part.length;
    }
    Deno.writeFileSync(`${this.dir}/output.raw`, raw);
    settle(this.timeline, this.#chunks);
    this.writeJson("truth.json", {
      capture,
      states: ["idle", "working", "blocked", "done", "error"],
      note: 'each entry: from byte_offset_in_raw on, the agent is in `state`; "starting" = ' +
        "booting, not a detector state; screen_settled_offset = where that state is fully drawn",
      timeline: this.timeline,
    });
    this[Symbol.dispose]();
  }

  [Symbol.dispose](): void {
    for (const file of this.#files.values()) file.close();
    this.#files.clear();
  }

  #append(name: string, record: Record<string, unknown>): void {
    let file = this.#files.get(name);
    if (!file) {
      file = Deno.openSync(`${this.dir}/${name}`, { create: true, append: true });
      this.#files.set(name, file);
    }
    file.writeSync(encoder.encode(JSON.stringify(record) + "\n"));
  }
}

/**
 * Sets each entry's `screen_settled_offset`: the end of the output written
 * up to SETTLE_MS after it (or just before the next label), never before it.
 */
export function settle(timeline: TruthEntry[], chunks: readonly Chunk[]): void {
  timeline.forEach((entry, i) => {
    const nextT = timeline[i + 1]?.t_ms ?? Infinity;
    const until = Math.min(entry.t_ms + SETTLE_MS, nextT - 1);
    let off = 0;
    for (const c of chunks) {
      if (c.t_ms > until) break;
      off = c.off + c.len;
    }
    entry.screen_settled_offset = Math.max(off, entry.byte_offset_in_raw);
  });
}
