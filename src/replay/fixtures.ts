/**
 * Reading the shared capture format (fixtures/captures/<name>/: output.raw,
 * truth.json, meta.json and the streams of capture.ts) and turning truth
 * labels into expectations; used by the fixture test and `deno task eval`.
 */

import { isDeepStrictEqual } from "node:util";
import type { AgentStateName, StateKind } from "../model/agent.ts";
import type { Catalog } from "../runtime/catalog.ts";
import type { ReplayOptions } from "./replay.ts";
import type { Prompt } from "../detect/prompt.ts";
import { type CaptureMeta, type CaptureStreams, readStreams } from "./capture.ts";

export interface TruthLabel {
  readonly t_ms?: number;
  readonly byte_offset_in_raw: number;
  readonly screen_settled_offset?: number;
  readonly state: string;
  /** The kind the detector must report with it (blocked or error), when the label names one. */
  readonly kind?: StateKind | null;
  readonly note: string;
  readonly source?: string;
  /** On blocked labels: what the screen asks (README "Prompts in truth.json"). */
  readonly prompt?: Prompt;
}

export interface Capture extends CaptureStreams {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly meta: CaptureMeta & {
    readonly agent: string;
    readonly cols: number;
    readonly rows: number;
  };
  readonly truth: { readonly timeline: readonly TruthLabel[] };
  /** Byte offsets at which the user pressed keys (input.jsonl, src "user"). */
  readonly keys: readonly number[];
  /** Where the terminal was resized, and to what (input.jsonl, src "resize"), in order. */
  readonly resizes: readonly Resize[];
}

export interface Resize {
  readonly off: number;
  readonly cols: number;
  readonly rows: number;
}

export interface Expectation {
  readonly offset: number;
  readonly state: AgentStateName;
  /** Asserted only when the label names it (undefined: not checked). */
  readonly kind?: StateKind | null;
  readonly label: string;
  /** Blocked labels: the prompt the screen shows. */
  readonly prompt?: Prompt;
}

export async function listCaptures(root: URL): Promise<Capture[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(root)) if (e.isDirectory) names.push(e.name);
  names.sort();
  const out: Capture[] = [];
  for (const name of names) out.push(await readCapture(new URL(`${name}/`, root)));
  return out;
}

/** One capture folder (`dir` ends in a slash). */
export async function readCapture(dir: URL): Promise<Capture> {
  const meta = JSON.parse(await Deno.readTextFile(new URL("meta.json", dir)));
  const streams = await readStreams(dir, meta);
  return {
    name: dir.pathname.split("/").at(-2) ?? "",
    bytes: await Deno.readFile(new URL("output.raw", dir)),
    meta,
    truth: JSON.parse(await Deno.readTextFile(new URL("truth.json", dir))),
    ...streams,
    keys: streams.input.map((k) => k.off),
    resizes: streams.events.flatMap((e) =>
      e.type === "resize" ? [{ off: e.off, cols: e.cols, rows: e.rows }] : []
    ),
  };
}

/**
 * Replays a capture as recorded: its size, agent, chunk times, the keys typed, resizes, exit
 * and hooks; `declared`: count OSC 7501 and the hooks (false: screen rules alone).
 */
export function captureReplay(capture: Capture, catalog: Catalog, declared = true): ReplayOptions {
  return {
    cols: capture.meta.cols,
    rows: capture.meta.rows,
    catalog,
    agent: capture.meta.agent,
    declared,
    ...(capture.chunks ? { chunks: capture.chunks } : {}),
    input: capture.input,
    events: capture.events,
    hooks: capture.hooks,
  };
}

/**
 * The states a detector must report, at each label's settled offset.
 * Skipped: `starting` (booting, not a detector state) and transitional
 * labels whose note says "expected next". The driver's "turn ended" `idle`
 * label 2 s after a `done` label comes with no key typed in between, so the
 * turn still reads `done`: done stays until the user types (docs/detection.md).
 */
export function expectations(truth: Capture["truth"]): Expectation[] {
  const out: Expectation[] = [];
  let previous: Expectation | null = null;
  for (const label of truth.timeline) {
    if (label.state === "starting" || /expected next/.test(label.note)) continue;
    const offset = label.screen_settled_offset ?? label.byte_offset_in_raw;
    let state = label.state as AgentStateName;
    if (state === "idle" && previous?.state === "done" && /^turn ended/.test(label.note)) {
      state = "done";
    }
    const kind = label.kind !== undefined
      ? label.kind
      : /permission prompt|trust dialog/.test(label.note)
      ? "permission" as const
      : undefined;
    const e: Expectation = {
      offset,
      state,
      label: label.note,
      ...(kind === undefined ? {} : { kind }),
      ...(label.prompt === undefined ? {} : { prompt: label.prompt }),
    };
    out.push(e);
    previous = e;
  }
  return out;
}

/**
 * A prompt read exactly as the truth has it — with `subject` unless
 * `withSubject` is false (screen rules alone: an OSC 7501 msg is the subject
 * in the full pipeline).
 */
export function samePromptExactly(
  read: Prompt | null | undefined,
  truth: Prompt,
  withSubject = true,
): boolean {
  if (!read) return false;
  const bare = (p: Prompt) => ({ ...p, subject: withSubject ? p.subject : null });
  return isDeepStrictEqual(bare(read), bare(truth));
}

/**
 * The capture up to its first resize (whole without one): what a replay at
 * the recorded size reads as it was drawn. The rest is read by
 * tests/fixtures_resize_test.ts, which resizes the emulator where the
 * terminal was.
 */
export function untilResized(capture: Capture): Capture {
  const first = capture.resizes[0];
  if (!first) return capture;
  const cut = first.off;
  const at = capture.events.find((e) => e.type === "resize")?.t_ms ?? Infinity;
  return {
    ...capture,
    bytes: capture.bytes.subarray(0, cut),
    truth: {
      timeline: capture.truth.timeline.filter((l) =>
        (l.screen_settled_offset ?? l.byte_offset_in_raw) <= cut
      ),
    },
    chunks: capture.chunks?.filter((c) => c.off < cut) ?? null,
    keys: capture.keys.filter((k) => k < cut),
    input: capture.input.filter((k) => k.off < cut),
    events: capture.events.filter((e) => e.off < cut),
    hooks: capture.hooks.filter((h) => h.t_ms < at),
    resizes: [],
  };
}
