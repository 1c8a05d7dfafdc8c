/**
 * Pure scoring for bench/detect_latency.ts: compares the agent's true state
 * timeline with the detector's state changes (both epoch ms).
 */

export interface TruthRecord {
  readonly t: number;
  readonly state: string;
  readonly note?: string;
}

export interface Change {
  readonly t: number;
  readonly state: string;
  readonly rule: string;
  readonly source: string;
}

interface Interval {
  readonly start: number;
  readonly end: number;
  readonly rule: string;
}

export interface Summary {
  readonly p50: number | null;
  readonly p95: number | null;
  readonly max: number | null;
}

export interface FalseEpisode {
  readonly t: number;
  readonly ms: number;
  readonly rule: string;
  /** The true state when it began. */
  readonly truth: string;
}

export interface Report {
  readonly prompts: number;
  readonly latency: Summary;
  readonly latencies: readonly number[];
  readonly misses: number;
  readonly afterglow: Summary;
  readonly falseWorking: number;
  readonly falseIdle: number;
  readonly falseEpisodes: readonly FalseEpisode[];
}

/** Nearest-rank percentile of a sorted list. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

function summary(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted.length ? sorted[sorted.length - 1]! : null,
  };
}

/** [start, end) intervals during which `state` held, in a timeline ending at `end`. */
export function intervals(
  timeline: readonly { t: number; state: string; rule?: string }[],
  state: string,
  end: number,
): Interval[] {
  const out: Interval[] = [];
  timeline.forEach((e, i) => {
    if (e.state !== state) return;
    const next = timeline[i + 1]?.t ?? end;
    out.push({ start: e.t, end: next, rule: e.rule ?? "" });
  });
  return out;
}

function stateAt(truth: readonly TruthRecord[], t: number): string {
  let s = "starting";
  for (const r of truth) {
    if (r.t > t) break;
    s = r.state;
  }
  return s;
}

export function analyse(
  truth: readonly TruthRecord[],
  changes: readonly Change[],
  end: number,
): Report {
  const trueBlocked = intervals(truth, "blocked", end);
  const detected = intervals(changes, "blocked", end);
  const overlaps = (a: Interval, b: Interval) => a.start <= b.end && b.start <= a.end;
  const latencies: number[] = [];
  const afterglows: number[] = [];
  let misses = 0;
  for (const episode of trueBlocked) {
    const hits = detected.filter((d) => overlaps(d, episode));
    if (hits.length === 0) {
      misses++;
      continue;
    }
    const first = hits[0]!;
    latencies.push(Math.max(0, first.start - episode.start));
    const last = hits[hits.length - 1]!;
    afterglows.push(Math.max(0, last.end - episode.end));
  }
  const falseEpisodes: FalseEpisode[] = detected
    .filter((d) => !trueBlocked.some((e) => overlaps(d, e)))
    .map((d) => ({
      t: d.start,
      ms: d.end - d.start,
      rule: d.rule,
      truth: stateAt(truth, d.start),
    }));
  const whileWorking = falseEpisodes.filter((f) => f.truth === "working").length;
  return {
    prompts: trueBlocked.length,
    latency: summary(latencies),
    latencies,
    misses,
    afterglow: summary(afterglows),
    falseWorking: whileWorking,
    falseIdle: falseEpisodes.length - whileWorking,
    falseEpisodes,
  };
}
