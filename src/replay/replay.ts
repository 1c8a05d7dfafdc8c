/**
 * Replays a capture through the detection engine that runs live (fixtures/captures/README.md;
 * docs/detection.md, Checking it): `lazyshell detect`, `deno task eval` and the fixture tests
 * share it. One SessionDetector (src/runtime/session_detector.ts) — the object the hub makes
 * for a live session — runs on a virtual clock (src/util/virtual_clock.ts) with a ticker on the
 * process's grid, and hears a ReplaySession fed the capture's chunks at their recorded times,
 * the keys the user typed, its resizes and its exit; the agent's hooks reach it as the hook
 * server hands them on. Its events go through the runtime's own reducer (src/runtime/state.ts)
 * into the session's view, the row a live client draws. Nothing here restates the schedule: a
 * screen is classified where the engine's own timers put it.
 *
 * OSC 7501 records and hooks count unless `declared` is false (screen rules alone). Without
 * chunk times, the bytes arrive `step` at a time, far enough apart for each to settle.
 */

import type { AgentStatus } from "../model/agent.ts";
import type { DetectionEvent } from "../model/events.ts";
import type { Prompt } from "../model/prompt.ts";
import { EMPTY_STATE, type RuntimeState } from "../model/runtime.ts";
import { type SessionView, sessionView } from "../model/session.ts";
import { BLOCKER_STALE_MS } from "../detect/arbiter.ts";
import type { Catalog } from "../runtime/catalog.ts";
import { detectorContext, type DetectorOptions } from "../runtime/detector_context.ts";
import { SessionDetector } from "../runtime/session_detector.ts";
import { type EngineEvent, reduceRuntime } from "../runtime/state.ts";
import { VirtualClock } from "../util/virtual_clock.ts";
import type { CapturedHook, CaptureEvent, Chunk, Typed } from "./capture.ts";
import { REPLAY_PID, ReplaySession, standIn } from "./replay_session.ts";

export type { Chunk } from "./capture.ts";

export interface ReplayOptions {
  readonly cols: number;
  readonly rows: number;
  readonly catalog: Catalog;
  /** Agent id; default: from the manifests' title/screen identity hints; null: none. */
  readonly agent?: string | null;
  /** Count OSC 7501 records in the bytes and the hooks (default true). */
  readonly declared?: boolean;
  /** When each output chunk arrived (a capture's chunks.jsonl). */
  readonly chunks?: readonly Chunk[];
  /** Without chunks: the bytes arrive this many at a time (default 256). */
  readonly step?: number;
  /** Keys the user typed, resizes and the exit, and the hooks, on the chunks' clock. */
  readonly input?: readonly Typed[];
  readonly events?: readonly CaptureEvent[];
  readonly hooks?: readonly CapturedHook[];
  /**
   * Called at every classification and every change of state, in order (`detect --trace`,
   * the fixture tests' whole-replay checks).
   */
  readonly onPoint?: ((point: ReplayPoint) => void) | undefined;
  /** The engine's own options (tests); default: what runs live. */
  readonly engine?: Partial<Pick<DetectorOptions, "settleMs" | "maxWaitMs" | "midUpdateMaxMs">>;
  /** The capture's wall clock at a replay time (a usage limit's reset, docs/limits.md). */
  readonly epochAt?: (t: number) => number;
  /** The agent's zone, for a reset printed with none. */
  readonly timeZone?: string;
}

export interface ReplayPoint {
  /** Bytes of the capture on screen. */
  readonly offset: number;
  /** The engine's clock: ms since spawn with chunk times. */
  readonly time: number;
  readonly agent: string | null;
  readonly status: AgentStatus | null;
  /** What the blocked screen asks (null unless blocked, or when it cannot be read). */
  readonly prompt: Prompt | null;
  /** The session as a live client sees it (exited, its size, its turns; `ctl list`'s rule). */
  readonly view: SessionView;
}

/** Without chunk times: how far apart the steps arrive (each settles before the next). */
const STEP_GAP_MS = 200;
/** After the last event: time for the engine's timers to run out (a stale hook's recheck too). */
const END_MS = BLOCKER_STALE_MS + 1000;

const ID = "session-1";

/** What happens, in order: a chunk read, a key typed, a resize, the exit, a hook. */
type Step =
  | { readonly t: number; readonly pos: number; readonly type: "output"; readonly end: number }
  | { readonly t: number; readonly pos: number; readonly type: "input"; readonly data: string }
  | (CaptureEvent & { readonly t: number; readonly pos: number })
  | { readonly t: number; readonly pos: null; readonly type: "hook"; readonly hook: CapturedHook };

/**
 * The state at each of `offsets`, in the given order: the engine's verdict on the bytes up to
 * it — what the session shows once they are in, with what happened before the next byte
 * (keys typed there come after), and nothing more arrives: its timers run out (a burst of
 * records is over, a half-drawn frame's hold ends, the screen settles). An offset past the end
 * (Infinity) is the end of the capture with everything in it: the keys typed and the events
 * after its last byte too (`lazyshell detect` without `--at`). One replay per offset; the one to
 * the last offset calls `onPoint` along the way.
 */
export async function replay(
  bytes: Uint8Array,
  offsets: readonly number[],
  options: ReplayOptions,
): Promise<ReplayPoint[]> {
  const size = bytes.length;
  const wanted = offsets.map((n) => n > size ? Infinity : Math.max(0, Math.floor(n)));
  const ends = [...new Set(wanted)].sort((a, b) => a - b);
  const steps = timeline(size, ends.filter((o) => o < Infinity), options);
  const results = new Map<number, ReplayPoint>();
  for (const end of ends) {
    // Everything before the first byte or key after `end`.
    const next = end === Infinity ? -1 : steps.findIndex((s) => s.pos !== null && s.pos > end);
    const prefix = next < 0 ? steps : steps.slice(0, next);
    const last = end === ends.at(-1);
    results.set(end, await run(bytes, prefix, last ? options : { ...options, onPoint: undefined }));
  }
  return wanted.map((o) => results.get(o)!);
}

/** The engine over `steps`, then until its timers ran out: its last reading. */
async function run(
  bytes: Uint8Array,
  steps: readonly Step[],
  options: ReplayOptions,
): Promise<ReplayPoint> {
  const declared = options.declared !== false;
  const clock = new VirtualClock(steps[0]?.t ?? 0);
  using session = replaySession(options, declared);
  let state = start(options);
  const fold = (e: EngineEvent) => (state = reduceRuntime(state, e).state);
  let offset = 0;
  let detector: SessionDetector | null = null;
  const point = (): ReplayPoint => {
    const view = state.sessions[0]!;
    // The arbiter's status names the rule that fired last; the view keeps the first rule of a
    // run of the same state (no churn), as `ctl list` shows it.
    const status = detector?.status ?? view.agentStatus;
    return { offset, time: clock.now(), agent: view.agent, status, prompt: view.prompt, view };
  };
  const onPoint = options.onPoint;
  // Every classification is a point, and so is a change of state between two (a hook, a key).
  const emit = (e: DetectionEvent) => {
    fold(e);
    if (e.type === "state") onPoint?.(point());
  };
  const ctx = detectorContext(options.catalog, emit, {
    ...options.engine,
    now: clock.now,
    scheduler: clock.ticker(),
    ...(options.epochAt ? { epochAt: options.epochAt } : {}),
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    ...(onPoint ? { classified: () => onPoint(point()) } : {}),
  });
  using engine = new SessionDetector(session, ctx);
  detector = engine;
  for (const step of steps) {
    clock.enter(step.t);
    if (step.type === "output") {
      const chunk = bytes.subarray(offset, step.end);
      offset = step.end;
      fold({ type: "output", id: ID, at: clock.now() });
      await session.output(chunk);
    } else if (step.type === "input") session.type(step.data);
    else if (step.type === "resize") {
      fold({ type: "session-resized", id: ID, cols: step.cols, rows: step.rows });
      session.resize(step.cols, step.rows);
    } else if (step.type === "exit") {
      const { exitCode, signal } = step;
      fold({ type: "session-exited", id: ID, exitCode, signal, at: clock.now() });
      session.exit(exitCode, signal);
    } else if (declared) engine.hook(step.hook.event);
  }
  clock.advanceTo(clock.now() + END_MS);
  return point();
}

/** The captured session: its agent's stand-in in the foreground, or the hints to name one. */
function replaySession(options: ReplayOptions, declared: boolean): ReplaySession {
  const manifest = options.agent ? options.catalog.get(options.agent) : null;
  return new ReplaySession({
    id: ID,
    cols: options.cols,
    rows: options.rows,
    argv: manifest ? standIn(manifest) : null,
    manifests: options.agent === undefined ? options.catalog.manifests : [],
    declared,
  });
}

/** The replay's runtime state: its one session, as the store would add it. */
function start(options: ReplayOptions): RuntimeState {
  const facts = sessionView(ID, {
    name: options.agent ?? "replay",
    pid: REPLAY_PID,
    cols: options.cols,
    rows: options.rows,
  });
  return reduceRuntime(EMPTY_STATE, { type: "session-added", session: facts }).state;
}

/**
 * The steps in the order they happened: by position in the bytes (a key typed at an offset
 * comes after the bytes before it, before those after), hooks by time; times never go back.
 * Chunks are cut at every wanted offset and where a key or event came, so that each sees
 * exactly the bytes before it. Without chunk times the replay cannot tell when within a step
 * a key came, nor what the capture's other times mean here: keys and events come at the end
 * of their step, at its time, and hooks are left out.
 */
function timeline(size: number, wanted: readonly number[], options: ReplayOptions): Step[] {
  const timed = (options.chunks?.length ?? 0) > 0;
  const chunks = chunksOf(size, options);
  // Untimed, a key or event comes at the end of the step it falls in.
  const place = (off: number) => timed ? off : chunks.find(([, end]) => end >= off)?.[1] ?? off;
  const marks: Step[] = [];
  for (const k of options.input ?? []) {
    marks.push({ t: k.t_ms, pos: place(k.off) + 0.5, type: "input", data: k.data });
  }
  for (const e of options.events ?? []) marks.push({ ...e, t: e.t_ms, pos: place(e.off) + 0.5 });
  const cuts = new Set(
    [...wanted, ...marks.map((m) => Math.floor(m.pos!))].filter((o) => o > 0 && o < size),
  );
  const placed: Step[] = [];
  for (const [from, end, t] of chunks) {
    for (const cut of [...cuts].filter((c) => c > from && c < end).sort((a, b) => a - b)) {
      placed.push({ t, pos: cut, type: "output", end: cut });
    }
    placed.push({ t, pos: end, type: "output", end });
  }
  placed.push(...marks);
  placed.sort((a, b) => a.pos! - b.pos! || a.t - b.t);
  let clock = -Infinity;
  const ordered = placed.map((s) => {
    // Untimed, the capture's own times mean nothing here: a key takes its step's time.
    clock = timed || s.type === "output" ? Math.max(clock, s.t) : clock;
    return { ...s, t: clock };
  });
  const out: Step[] = [];
  const hooks = timed ? [...options.hooks ?? []] : [];
  for (const step of ordered) {
    while (hooks.length > 0 && hooks[0]!.t_ms < step.t) hookStep(out, hooks.shift()!);
    out.push(step);
  }
  for (const hook of hooks) hookStep(out, hook);
  return out;
}

function hookStep(out: Step[], hook: CapturedHook): void {
  const t = Math.max(hook.t_ms, out.at(-1)?.t ?? -Infinity);
  out.push({ t, pos: null, type: "hook", hook });
}

/** [from, end, time] of each chunk: recorded, or `step` bytes every STEP_GAP_MS. */
function chunksOf(size: number, options: ReplayOptions): [number, number, number][] {
  const out: [number, number, number][] = [];
  const chunks = options.chunks;
  if (chunks && chunks.length > 0) {
    let pos = 0;
    for (const c of chunks) {
      const end = Math.min(size, c.off + c.len);
      if (end > pos) out.push([pos, end, c.t_ms]);
      pos = Math.max(pos, end);
    }
    if (pos < size) out.push([pos, size, chunks.at(-1)!.t_ms]);
    return out;
  }
  const step = options.step ?? 256;
  for (let p = 0, i = 1; p < size; p += step, i++) {
    out.push([p, Math.min(size, p + step), i * STEP_GAP_MS]);
  }
  return out;
}
