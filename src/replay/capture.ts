/**
 * The streams of a capture folder (fixtures/captures/README.md) that replay feeds the detection
 * engine, each on the capture's clock (`t_ms`, ms since the recorder started): the output's
 * chunk times (chunks.jsonl), what the user typed (input.jsonl), resizes and the exit
 * (events.jsonl), and the agent's hooks (hooks.jsonl, Claude Code; notify.jsonl, Codex) as the
 * hooks `lazyshell init --agents` prints would have reported them. A stream that is absent is
 * empty (null for chunks); a line that cannot be read is skipped.
 */

import type { HookEvent } from "../model/events.ts";
import { HookInterpreter, interpretRun } from "../ipc/hook_mapping.ts";
import { CLAUDE_HOOKS, CODEX_NOTIFY_ARGS } from "../ipc/integrations.ts";

export interface Chunk {
  /** Byte offset where the chunk starts. */
  readonly off: number;
  readonly len: number;
  /** Arrival, ms since spawn. */
  readonly t_ms: number;
}

/** Keys the user typed (input.jsonl, src "user"): after the bytes before `off`. */
export interface Typed {
  readonly t_ms: number;
  readonly off: number;
  readonly data: string;
}

/** A resize or the exit (events.jsonl): after the bytes before `off`. */
export type CaptureEvent =
  | {
    readonly type: "resize";
    readonly t_ms: number;
    readonly off: number;
    readonly cols: number;
    readonly rows: number;
  }
  | {
    readonly type: "exit";
    readonly t_ms: number;
    readonly off: number;
    readonly exitCode: number | null;
    readonly signal: number | null;
  };

/** A hook as the hook server would have applied it. */
export interface CapturedHook {
  readonly t_ms: number;
  readonly event: HookEvent;
}

export interface CaptureStreams {
  readonly chunks: readonly Chunk[] | null;
  readonly input: readonly Typed[];
  readonly events: readonly CaptureEvent[];
  readonly hooks: readonly CapturedHook[];
}

/** What meta.json says that replay uses. */
export interface CaptureMeta {
  readonly agent?: string;
  readonly cols?: number;
  readonly rows?: number;
  /** The program run and its arguments: the foreground process replay shows the engine. */
  readonly file?: string;
  readonly args?: readonly string[];
  /** When the recorder started (epoch ms): hooks are stamped in epoch ms. */
  readonly started_epoch_ms?: number;
  /** The agent's zone: its env's `TZ`, else the recorder's (a reset printed with no zone). */
  readonly tz?: string;
}

export async function readStreams(dir: URL, meta: CaptureMeta): Promise<CaptureStreams> {
  const start = meta.started_epoch_ms;
  const input = await jsonLines(new URL("input.jsonl", dir)) ?? [];
  return {
    chunks: await readChunks(new URL("chunks.jsonl", dir)),
    input: input.flatMap(typed),
    // A resize is in events.jsonl, or in input.jsonl (`src: "resize"`, as tools/capture records it).
    events: [
      ...(await jsonLines(new URL("events.jsonl", dir)) ?? []).flatMap(captureEvent),
      ...input.flatMap((e) => e.src === "resize" ? captureEvent({ ...e, type: "resize" }) : []),
    ].sort((a, b) => a.off - b.off || a.t_ms - b.t_ms),
    hooks: start === undefined ? [] : await readHooks(dir, start),
  };
}

/** chunks.jsonl: one `{t_ms, off, len}` per output chunk; null when absent. */
export async function readChunks(path: URL | string): Promise<Chunk[] | null> {
  const lines = await jsonLines(path);
  return lines &&
    lines.flatMap((c) =>
      typeof c.off === "number" && typeof c.len === "number" && typeof c.t_ms === "number"
        ? [{ off: c.off, len: c.len, t_ms: c.t_ms }]
        : []
    );
}

function typed(e: Line): Typed[] {
  if (e.src !== "user" || typeof e.byte_offset_in_raw !== "number") return [];
  if (typeof e.t_ms !== "number" || typeof e.b64 !== "string") return [];
  const bytes = Uint8Array.from(atob(e.b64), (c) => c.charCodeAt(0));
  return [{ t_ms: e.t_ms, off: e.byte_offset_in_raw, data: new TextDecoder().decode(bytes) }];
}

function captureEvent(e: Line): CaptureEvent[] {
  const { t_ms, byte_offset_in_raw: off } = e;
  if (typeof t_ms !== "number" || typeof off !== "number") return [];
  if (e.type === "resize" && isSize(e.cols) && isSize(e.rows)) {
    return [{ type: "resize", t_ms, off, cols: e.cols, rows: e.rows }];
  }
  if (e.type === "exit") {
    const code = typeof e.exitCode === "number" ? e.exitCode : null;
    const signal = typeof e.signal === "number" && e.signal > 0 ? e.signal : null;
    return [{ type: "exit", t_ms, off, exitCode: signal ? null : code, signal }];
  }
  return [];
}

function isSize(n: unknown): n is number {
  return Number.isInteger(n) && (n as number) > 0;
}

/**
 * hooks.jsonl (`{t_epoch_ms, event, payload}` per Claude Code hook run) through the hooks of
 * src/ipc/integrations.ts, and notify.jsonl (`{t_epoch_ms, argv}` per Codex notify run, its
 * JSON the last argument), through one interpreter, in time order.
 */
async function readHooks(dir: URL, start: number): Promise<CapturedHook[]> {
  const runs: { t: number; args: readonly string[]; payload: unknown }[] = [];
  for (const line of await jsonLines(new URL("hooks.jsonl", dir)) ?? []) {
    const hook = CLAUDE_HOOKS.find((h) => h.event === line.event);
    if (hook && typeof line.t_epoch_ms === "number") {
      runs.push({ t: line.t_epoch_ms, args: hook.args, payload: line.payload });
    }
  }
  for (const line of await jsonLines(new URL("notify.jsonl", dir)) ?? []) {
    const json = Array.isArray(line.argv) ? line.argv[0] : undefined;
    if (typeof json === "string" && typeof line.t_epoch_ms === "number") {
      runs.push({ t: line.t_epoch_ms, args: [...CODEX_NOTIFY_ARGS, json], payload: null });
    }
  }
  runs.sort((a, b) => a.t - b.t);
  const interpreter = new HookInterpreter();
  return runs.flatMap((run) => {
    try {
      const event = interpretRun(interpreter, run.args, run.payload);
      return event ? [{ t_ms: run.t - start, event }] : [];
    } catch {
      return []; // a payload the hook server would refuse
    }
  });
}

type Line = Record<string, unknown>;

/** The objects of a JSON Lines file, or null when it cannot be read. */
async function jsonLines(path: URL | string): Promise<Line[] | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    return null;
  }
  const out: Line[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const value = JSON.parse(line);
      if (typeof value === "object" && value !== null) out.push(value);
    } catch { /* a line cut short: skipped */ }
  }
  return out;
}
