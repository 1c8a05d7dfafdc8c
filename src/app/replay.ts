/**
 * Replays a raw capture through the real emulator and the detector (SPEC
 * D8, I4): `lazyshell detect`, `deno task eval` and the fixture test share
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
import { terminalView } from "../session/screen_view.ts";
import { HeadlessTerminal } from "../session/terminal.ts";
import type { Catalog } from "./catalog.ts";

export interface ReplayOptions {
  readonly cols: number;
  readonly rows: number;
  readonly catalog: Catalog;
  /** Agent id; default: from the manifests' title/screen identity hints. */
  readonly agent?: string | null;
  /** Count OSC 7501 records in the bytes (default true). */
  readonly declared?: boolean;
  /** Classify at least every `step` bytes (default 4096). */
  readonly step?: number;
}

export interface ReplayPoint {
  readonly offset: number;
  readonly agent: string | null;
  readonly status: AgentStatus | null;
}

/** Results at each of `offsets` (bytes up to that offset), in the given order. */
export async function replay(
  bytes: Uint8Array,
  offsets: readonly number[],
  options: ReplayOptions,
): Promise<ReplayPoint[]> {
  const clamp = (n: number) => Math.max(0, Math.min(bytes.length, Math.floor(n)));
  const wanted = offsets.map(clamp);
  const step = options.step ?? 4096;
  const last = Math.max(0, ...wanted);
  const points = new Set<number>(wanted);
  for (let p = step; p < last; p += step) points.add(p);
  const sorted = [...points].sort((a, b) => a - b);

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
  let pos = 0;
  for (const point of sorted) {
    if (point > pos) {
      term.write(bytes.subarray(pos, point));
      pos = point;
    }
    await term.flush();
    now += 100;
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
    results.set(point, { offset: point, agent, status: state.status });
  }
  return wanted.map((o) => results.get(o) ?? { offset: o, agent, status: state.status });
}
