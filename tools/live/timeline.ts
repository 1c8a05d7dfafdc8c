/**
 * The verdict of one live run (pure): the states a scripted user expected
 * (labels placed where the screen showed them, like capture truth) against
 * the states lazyshell reported through the control API. Reports, per
 * expected `blocked`, the latency from the screen showing the prompt to
 * lazyshell saying `blocked` (or a miss), and every `blocked` episode that
 * no expected one explains (a false alarm).
 */

export interface Expected {
  readonly t: number;
  readonly state: string;
  readonly note: string;
  readonly source: string;
}

export interface Observed {
  readonly t: number;
  readonly state: string | null;
  readonly kind: string | null;
  readonly source: string | null;
  readonly ruleId: string | null;
  readonly seq: number | null;
}

export interface BlockedCheck {
  readonly expectedAt: number;
  readonly note: string;
  /** ms from the expected label to the first observed blocked, null = missed. */
  readonly latencyMs: number | null;
}

export interface Episode {
  readonly from: number;
  readonly to: number | null;
  readonly kind: string | null;
  readonly source: string | null;
  readonly ruleId: string | null;
}

export interface Verdict {
  readonly blocked: readonly BlockedCheck[];
  readonly falseBlocked: readonly Episode[];
  /** Expected done labels never followed by an observed done before the next label. */
  readonly missedDone: readonly Expected[];
}

/** Polling slack: an observation may land this long before the screen label. */
const SLACK_MS = 1500;

function episodes(observed: readonly Observed[], state: string): Episode[] {
  const out: Episode[] = [];
  let open: Observed | null = null;
  for (const o of observed) {
    if (o.state === state && !open) open = o;
    else if (o.state !== state && open) {
      out.push({
        from: open.t,
        to: o.t,
        kind: open.kind,
        source: open.source,
        ruleId: open.ruleId,
      });
      open = null;
    }
  }
  if (open) {
    out.push({ from: open.t, to: null, kind: open.kind, source: open.source, ruleId: open.ruleId });
  }
  return out;
}

export function judge(expected: readonly Expected[], observed: readonly Observed[]): Verdict {
  const sorted = [...expected].sort((a, b) => a.t - b.t);
  const nextAfter = (i: number) => sorted[i + 1]?.t ?? Infinity;
  const blockedEps = episodes(observed, "blocked");
  const blocked: BlockedCheck[] = [];
  /** Windows in which a blocked episode is expected. */
  const windows: [number, number][] = [];
  sorted.forEach((e, i) => {
    if (e.state !== "blocked") return;
    const end = nextAfter(i);
    windows.push([e.t - SLACK_MS, end + SLACK_MS]);
    const hit = blockedEps.find((ep) =>
      ep.from >= e.t - SLACK_MS && ep.from < end || ep.from < e.t && (ep.to ?? Infinity) > e.t
    );
    blocked.push({
      expectedAt: e.t,
      note: e.note,
      latencyMs: hit ? Math.max(0, hit.from - e.t) : null,
    });
  });
  const falseBlocked = blockedEps.filter((ep) =>
    !windows.some(([a, b]) => ep.from >= a && ep.from < b || ep.from < a && (ep.to ?? Infinity) > a)
  );
  const doneEps = episodes(observed, "done");
  const missedDone = sorted.filter((e, i) =>
    e.state === "done" &&
    !doneEps.some((ep) => ep.from >= e.t - SLACK_MS * 4 && ep.from < nextAfter(i) + SLACK_MS)
  );
  return { blocked, falseBlocked, missedDone };
}

function fmt(t: number): string {
  return (t / 1000).toFixed(1).padStart(6) + "s";
}

/** Expected and observed, interleaved by time, then the verdict. */
export function render(
  expected: readonly Expected[],
  observed: readonly Observed[],
  verdict: Verdict,
): string {
  const rows: [number, string][] = [
    ...expected.map((e): [number, string] => [
      e.t,
      `${fmt(e.t)}  expect   ${e.state.padEnd(8)} (${e.source}) ${e.note}`,
    ]),
    ...observed.map((o): [number, string] => [
      o.t,
      `${fmt(o.t)}  observe  ${String(o.state).padEnd(8)} kind=${o.kind} source=${o.source} ` +
      `rule=${o.ruleId} seq=${o.seq}`,
    ]),
  ];
  rows.sort((a, b) => a[0] - b[0]);
  const lines = rows.map((r) => r[1]);
  lines.push("");
  for (const b of verdict.blocked) {
    lines.push(
      b.latencyMs === null
        ? `MISS     blocked expected at ${fmt(b.expectedAt)} (${b.note})`
        : `blocked  latency ${b.latencyMs} ms from the prompt on screen (${b.note})`,
    );
  }
  for (const ep of verdict.falseBlocked) {
    lines.push(
      `FALSE    blocked ${fmt(ep.from)}..${ep.to === null ? "end" : fmt(ep.to)} ` +
        `kind=${ep.kind} source=${ep.source} rule=${ep.ruleId}`,
    );
  }
  for (const d of verdict.missedDone) lines.push(`MISS     done expected at ${fmt(d.t)}`);
  if (verdict.blocked.length === 0 && verdict.falseBlocked.length === 0) {
    lines.push("no blocked expected, none observed");
  }
  return lines.join("\n");
}
