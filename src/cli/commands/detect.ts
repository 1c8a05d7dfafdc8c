/**
 * `lazyshell detect FILE [--cols 120] [--rows 32] [--agent NAME]
 * [--at OFFSET]... [--json]` (docs/manifests.md): replays a raw capture through the
 * detection engine that runs live (src/replay/replay.ts; answering nothing; OSC 7501
 * records in the bytes count as declared evidence) and prints agent, state, kind, source
 * and rule — for the end of the file, or one result per `--at` offset — and, when blocked,
 * what the screen asks (`prompt`, docs/manifests.md "Prompts"). FILE may also be a
 * capture directory: output.raw + meta.json give the size and agent, and its chunk times,
 * typed keys, resizes, exit and hooks (src/replay/capture.ts) reach the engine as live;
 * a session whose program exited prints `status=exited`.
 */

import type { Command } from "@commander-js/extra-typings";
import { UserError } from "../../errors.ts";
import type { Prompt } from "../../detect/prompt.ts";
import type { ReplayPoint } from "../../replay/replay.ts";
import type { CaptureMeta } from "../../replay/capture.ts";

export interface DetectRow {
  readonly offset: number;
  /** The session: running, or exited (its program ended). */
  readonly status: "running" | "exited";
  readonly agent: string | null;
  readonly state: string | null;
  readonly kind: string | null;
  readonly source: string | null;
  readonly rule: string | null;
  /** What a blocked screen asks; null otherwise or when it cannot be read. */
  readonly prompt: Prompt | null;
  /** What the state says (a declared msg, an error's text read on screen), or null. */
  readonly msg: string | null;
  /** A usage limit's reset (ISO 8601), read on the capture's clock and zone; else null. */
  readonly resetsAt: string | null;
}

function integer(name: string, min: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min) {
      throw new UserError(`Invalid ${name}: ${value} (expected an integer >= ${min})`);
    }
    return Number(value);
  };
}

export function registerDetect(program: Command): void {
  program
    .command("detect")
    .description("Replay a raw capture through the emulator and print the detected agent state")
    .argument("<file>", "raw output bytes (or a capture directory with output.raw)")
    .option("--cols <n>", "terminal width (default 120, or the capture's)", integer("--cols", 2))
    .option("--rows <n>", "terminal height (default 32, or the capture's)", integer("--rows", 2))
    .option("--agent <name>", "agent manifest to use (default: from title/screen identity hints)")
    .option(
      "--at <offset>",
      "classify the bytes up to this offset (repeatable)",
      (v: string, prev: number[] = []) => [...prev, integer("--at", 0)(v)],
    )
    .option("--no-osc7501", "ignore OSC 7501 records in the bytes (screen rules alone)")
    .option("--json", "print JSON: one object, or an array in --at order")
    .option("--trace", "print every state change along the replay first (explain)")
    .action(async (file, opts) => {
      const rows = await detectFile(file, {
        ...(opts.cols !== undefined ? { cols: opts.cols } : {}),
        ...(opts.rows !== undefined ? { rows: opts.rows } : {}),
        ...(opts.agent !== undefined ? { agent: opts.agent } : {}),
        ...(opts.at !== undefined ? { at: opts.at } : {}),
        declared: opts.osc7501,
        ...(opts.trace ? { trace: (r: DetectRow) => console.log(`change ${formatRow(r)}`) } : {}),
      });
      if (opts.json) {
        console.log(JSON.stringify(opts.at === undefined ? rows[0] : rows));
      } else {
        for (const r of rows) console.log(formatRow(r));
      }
    });
}

export interface DetectOptions {
  readonly cols?: number;
  readonly rows?: number;
  readonly agent?: string;
  readonly at?: readonly number[];
  readonly declared?: boolean;
  /** Called for every state change along the replay (`--trace`). */
  readonly trace?: (row: DetectRow) => void;
}

/** The command's work, for tests: results in `at` order (or one for the end of the file). */
export async function detectFile(file: string, options: DetectOptions): Promise<DetectRow[]> {
  const { loadCatalog } = await import("../../runtime/catalog.ts");
  const { replay } = await import("../../replay/replay.ts");
  const { readStreams } = await import("../../replay/capture.ts");
  const { bytes, meta, dir } = await readCapture(file);
  const streams = dir ? await readStreams(dirUrl(dir), meta) : null;
  const catalog = await loadCatalog();
  for (const e of catalog.errors) console.error(`lazyshell: warning: ${e.message}`);
  if (options.agent !== undefined && catalog.get(options.agent) === null) {
    throw new UserError(
      `Unknown agent: ${options.agent} (known: ${catalog.ids.join(", ")})`,
    );
  }
  // Without --at: the end of the capture, the keys typed and its exit after the last byte too.
  const at = options.at ?? [Infinity];
  for (const o of options.at ?? []) {
    if (o > bytes.length) {
      throw new UserError(`Offset ${o} is past the end of ${file} (${bytes.length} bytes)`);
    }
  }
  const agent = options.agent ?? meta.agent;
  let seq = 0;
  const traceChange = (p: ReplayPoint) => {
    if (!p.status || p.status.seq === seq) return;
    seq = p.status.seq;
    options.trace!(rowOf(p));
  };
  const points = await replay(bytes, at, {
    cols: options.cols ?? meta.cols ?? 120,
    rows: options.rows ?? meta.rows ?? 32,
    catalog,
    ...(agent !== undefined ? { agent } : {}),
    declared: options.declared !== false,
    ...(streams?.chunks ? { chunks: streams.chunks } : {}),
    ...(streams ? { input: streams.input, events: streams.events, hooks: streams.hooks } : {}),
    ...(options.trace ? { onPoint: (p: ReplayPoint) => traceChange(p) } : {}),
    // The capture's wall clock and zone: a reset is read as it was live (docs/limits.md).
    epochAt: clockOf(meta),
    ...(meta.tz ? { timeZone: meta.tz } : {}),
  });
  return points.map(rowOf);
}

function rowOf(p: ReplayPoint): DetectRow {
  return {
    offset: p.offset,
    status: p.view.status,
    agent: p.agent,
    state: p.status?.state ?? null,
    kind: p.status?.kind ?? null,
    source: p.status?.source ?? null,
    rule: p.status?.ruleId ?? null,
    prompt: p.prompt,
    msg: p.status?.msg ?? null,
    resetsAt: typeof p.status?.resetsAt === "number"
      ? new Date(p.status.resetsAt).toISOString()
      : null,
  };
}

/**
 * The wall clock at a replay time (ms since the capture started): its
 * `started_epoch_ms` plus it; without one, the clock when the replay began.
 */
export function clockOf(meta: CaptureMeta): (t: number) => number {
  const start = meta.started_epoch_ms ?? Date.now();
  return (t) => start + t;
}

/** The bytes, and for a capture directory its meta.json and absolute path (`dir`). */
async function readCapture(
  file: string,
): Promise<{ bytes: Uint8Array; meta: CaptureMeta; dir: string | null }> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(file);
  } catch {
    throw new UserError(`Cannot read ${file}: no such file`);
  }
  if (!info.isDirectory) return { bytes: await readBytes(file), meta: {}, dir: null };
  const bytes = await readBytes(`${file}/output.raw`);
  let meta: CaptureMeta = {};
  try {
    const raw = JSON.parse(await Deno.readTextFile(`${file}/meta.json`));
    meta = {
      ...(typeof raw.agent === "string" ? { agent: raw.agent } : {}),
      ...(Number.isInteger(raw.cols) ? { cols: raw.cols } : {}),
      ...(Number.isInteger(raw.rows) ? { rows: raw.rows } : {}),
      ...(Number.isFinite(raw.started_epoch_ms) ? { started_epoch_ms: raw.started_epoch_ms } : {}),
      ...zoneOf(raw),
    };
  } catch { /* no meta.json: defaults */ }
  return { bytes, meta, dir: await Deno.realPath(file) };
}

/** The agent's zone in the capture: its env's `TZ`, else the recorder's `tz`. */
function zoneOf(raw: { env?: { TZ?: unknown }; tz?: unknown }): { tz?: string } {
  const tz = typeof raw.env?.TZ === "string" && raw.env.TZ !== ""
    ? raw.env.TZ.replace(/^:/, "")
    : typeof raw.tz === "string" && raw.tz !== ""
    ? raw.tz
    : null;
  return tz === null ? {} : { tz };
}

function dirUrl(path: string): URL {
  const url = new URL("file:///");
  url.pathname = `${path}/`;
  return url;
}

async function readBytes(path: string): Promise<Uint8Array> {
  try {
    return await Deno.readFile(path);
  } catch (error) {
    const why = error instanceof Deno.errors.NotFound ? "no such file" : String(error);
    throw new UserError(`Cannot read ${path}: ${why}`);
  }
}

export function formatRow(r: DetectRow): string {
  const v = (x: string | null) => x ?? "-";
  const exited = r.status === "exited" ? "\tstatus=exited" : "";
  const line =
    `${r.offset}${exited}\tagent=${v(r.agent)}\tstate=${v(r.state)}\tkind=${v(r.kind)}\t` +
    `source=${v(r.source)}\trule=${v(r.rule)}` +
    (r.msg === null ? "" : `\tmsg=${JSON.stringify(r.msg)}`) +
    (r.resetsAt === null ? "" : `\tresetsAt=${r.resetsAt}`);
  return r.prompt ? `${line}\n${formatPrompt(r.prompt)}` : line;
}

/** `  asks: Do you want to proceed? (touch x)` then one line per option with its keys. */
export function formatPrompt(p: Prompt): string {
  const lines = [`  asks: ${p.question}${p.subject ? ` (${p.subject})` : ""}`];
  p.options.forEach((o, i) => {
    const role = p.approve === i + 1 ? " [approve]" : p.deny === i + 1 ? " [deny]" : "";
    lines.push(`    ${i + 1}. ${o.label}  keys: ${o.keys.join(" ")}${role}`);
  });
  if (p.cancel) lines.push(`    cancel  keys: ${p.cancel.join(" ")}`);
  return lines.join("\n");
}
