/** Percentiles and timing of subprocesses for the latency benchmarks. */

export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? NaN;
}

/** The middle value; the mean of the two middle ones for an even count. */
export function median(samples: readonly number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** p50/p95 µs of a call, and the p95 of the least disturbed round (the machine is shared). */
export interface MicroFigures {
  readonly p50: number;
  readonly p95: number;
  readonly bestP95: number;
}

/**
 * µs per call of `fn`, `iterations` calls in `rounds` rounds, batched (10
 * calls per sample) so that the timer's resolution does not dominate,
 * after `warmup` calls for the JIT.
 */
export function measureMicros(
  fn: () => unknown,
  iterations: number,
  rounds = 5,
  warmup = 2000,
): MicroFigures {
  const batch = 10;
  for (let i = 0; i < warmup; i++) fn();
  const all: number[] = [];
  let bestP95 = Infinity;
  for (let round = 0; round < rounds; round++) {
    const samples: number[] = [];
    for (let i = 0; i < iterations / batch / rounds; i++) {
      const t0 = performance.now();
      for (let j = 0; j < batch; j++) fn();
      samples.push(((performance.now() - t0) * 1000) / batch);
    }
    all.push(...samples);
    bestP95 = Math.min(bestP95, percentile(samples, 95));
  }
  return { p50: percentile(all, 50), p95: percentile(all, 95), bestP95 };
}

/**
 * Wall times (ms) of several commands, run round-robin (one of each per
 * round) so that load changes on a shared machine hit them all alike.
 */
export async function timeInterleaved(
  commands: readonly { argv: readonly string[]; env: Record<string, string> }[],
  runs: number,
  warmup = 3,
): Promise<number[][]> {
  const samples: number[][] = commands.map(() => []);
  for (let round = 0; round < warmup + runs; round++) {
    for (const [i, command] of commands.entries()) {
      const [ms] = await timeCommand(command.argv, command.env, 1, 0);
      if (round >= warmup) samples[i]!.push(ms!);
    }
  }
  return samples;
}

/** Wall time (ms) of each of `runs` runs of a command, after `warmup` unmeasured ones. */
export async function timeCommand(
  argv: readonly string[],
  env: Record<string, string>,
  runs: number,
  warmup = 3,
): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < warmup + runs; i++) {
    const start = performance.now();
    const out = await new Deno.Command(argv[0]!, {
      args: argv.slice(1),
      env,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).output();
    const ms = performance.now() - start;
    if (!out.success) throw new Error(`${argv.join(" ")} exited with ${out.code}`);
    if (i >= warmup) samples.push(ms);
  }
  return samples;
}

export function row(
  label: string,
  samples: readonly number[],
  baseline?: readonly number[],
  reference?: { readonly name: string; readonly samples: readonly number[] },
) {
  const p50 = percentile(samples, 50);
  const p95 = percentile(samples, 95);
  let ratio = baseline ? `  ×${(p50 / percentile(baseline, 50)).toFixed(1)} of true` : "";
  if (reference) {
    ratio += `, ×${(p50 / percentile(reference.samples, 50)).toFixed(2)} of ${reference.name}`;
  }
  return `${label.padEnd(44)} p50 ${p50.toFixed(1).padStart(7)} ms   p95 ${
    p95.toFixed(1).padStart(7)
  } ms   max ${Math.max(...samples).toFixed(1).padStart(7)} ms${ratio}`;
}
