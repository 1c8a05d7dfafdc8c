/**
 * Replays a raw capture through the real emulator and the detector
 * (fixtures/captures/README.md): `lazyshell detect`, `deno task eval` and the fixture test share
 * it. Nothing is answered (no reply channel); OSC 7501 records present in
 * the bytes count as declared evidence unless `declared` is false (screen
 * rules alone). The arbiter sees the screen every `step` bytes, so
 * transitions (a turn ending) are observed as they would be live.
 */

import type { AgentStatus } from "../model/agent.ts";
import { initialState, reduce } from "../detect/arbiter.ts";
import type { ArbiterState, Evidence } from "../detect/arbiter.ts";
import type { Manifest } from "../detect/manifest.ts";
import { parseBurst } from "../detect/osc7501.ts";
import { classify, identifyByHints } from "../detect/rules.ts";
import { type Prompt, promptFor } from "../detect/prompt.ts";
import { terminalView } from "../session/screen_view.ts";
import { HeadlessTerminal } from "../session/terminal.ts";
import type { Catalog } from "../runtime/catalog.ts";

export interface ReplayOptions {
  readonly cols: number;
  readonly rows: number;
  readonly catalog: Catalog;
  /** Agent id; default: from the manifests' title/screen identity hints. */
  readonly agent?: string | null;
  /** Count OSC 7501 records in the bytes (default true). */
  readonly declared?: boolean;
  /**
   * When each output chunk arrived (a capture's chunks.jsonl): the screen is
   * classified where output settled, as live (D7: 30 ms quiet, 100 ms max).
   */
  readonly chunks?: readonly Chunk[];
  /** Without chunks: classify every `step` bytes (default 256). */
  readonly step?: number;
  /** Called at every classification point, in order (eval, false-blocked checks). */
  readonly onPoint?: (point: ReplayPoint) => void;
}

export interface Chunk {
  /** Byte offset where the chunk starts. */
  readonly off: number;
  readonly len: number;
  /** Arrival, ms since spawn. */
  readonly t_ms: number;
}

export interface ReplayPoint {
  readonly offset: number;
  /** When a live hub would have classified (ms since spawn with chunk times, else the offset). */
  readonly time: number;
  readonly agent: string | null;
  readonly status: AgentStatus | null;
  /** What the blocked screen asks (null unless blocked, or when it cannot be read). */
  readonly prompt: Prompt | null;
}

const SETTLE_MS = 30;
const MAX_WAIT_MS = 100;

/** Where a live hub would have classified: [offset, time] pairs. */
function schedule(size: number, options: ReplayOptions): [number, number][] {
  const out: [number, number][] = [];
  const chunks = options.chunks;
  if (chunks && chunks.length > 0) {
    let first: number | null = null;
    for (let i = 0; i < chunks.length; i++) {
      const c = chunks[i]!;
      first ??= c.t_ms;
      const next = chunks[i + 1];
      const end = Math.min(size, c.off + c.len);
      if (!next || next.t_ms - c.t_ms >= SETTLE_MS || next.t_ms - first >= MAX_WAIT_MS) {
        out.push([end, c.t_ms + SETTLE_MS]);
        first = null;
      }
    }
    return out;
  }
  const step = options.step ?? 256;
  for (let p = step; p < size; p += step) out.push([p, p]);
  out.push([size, size]);
  return out;
}

/** Results at each of `offsets` (bytes up to that offset), in the given order. */
export async function replay(
  bytes: Uint8Array,
  offsets: readonly number[],
  options: ReplayOptions,
): Promise<ReplayPoint[]> {
  const clamp = (n: number) => Math.max(0, Math.min(bytes.length, Math.floor(n)));
  const wanted = offsets.map(clamp);
  const last = Math.max(0, ...wanted);
  const times = new Map<number, number>();
  for (const [o, t] of schedule(bytes.length, options)) if (o <= last) times.set(o, t);
  const sorted = [...new Set([...times.keys(), ...wanted])].sort((a, b) => a - b);
  // A requested offset between scheduled points takes the time of the point before it.
  let clock = 0;
  const timeline = sorted.map((o) => [o, clock = Math.max(clock, times.get(o) ?? clock)] as const);

  using term = new HeadlessTerminal({ cols: options.cols, rows: options.rows });
  const pending: string[] = [];
  let prompt = false;
  using _sub = term.on((e) => {
    if (e.type === "osc7501" && options.declared !== false) pending.push(e.payload);
    if (e.type === "osc133" && e.mark === "A") prompt = true;
  });
  let agent: string | null = options.agent ?? null;
  let manifest: Manifest | null = options.catalog.get(agent);
  let state: ArbiterState = initialState({ turnEnd: manifest?.turnEnd ?? "idle" });
  let now = 0;
  const feed = (e: Evidence) => (state = reduce(state, e, now));
  const results = new Map<number, ReplayPoint>();
  const classifyAt = (point: number, time: number) => {
    now = time;
    if (pending.length > 0) {
      const records = parseBurst(pending.splice(0));
      if (records) feed({ type: "declare", records });
    }
    if (prompt) {
      prompt = false;
      feed({ type: "prompt" });
    }
    const view = terminalView(term);
    if (options.agent === undefined) {
      const found = identifyByHints(options.catalog.manifests, view);
      if (found !== null && found !== agent) {
        agent = found;
        manifest = options.catalog.get(agent);
        state = { ...state, options: { turnEnd: manifest?.turnEnd ?? "idle" } };
        feed({ type: "agent", agent });
      }
    }
    feed({ type: "screen", result: classify(manifest, view) });
    const asks = promptFor(manifest?.prompts ?? [], state.status, view);
    const result = { offset: point, time, agent, status: state.status, prompt: asks };
    results.set(point, result);
    options.onPoint?.(result);
  };
  // Callbacks run in order, each right after its segment is parsed.
  let pos = 0;
  for (const [point, time] of timeline) {
    term.write(bytes.subarray(pos, point), () => classifyAt(point, time));
    pos = point;
  }
  await term.flush();
  return wanted.map((o) =>
    results.get(o) ?? { offset: o, time: now, agent, status: state.status, prompt: null }
  );
}
