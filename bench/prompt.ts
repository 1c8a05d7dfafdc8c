/**
 * Prompt reading cost (docs/manifests.md "Prompts") beside the classification it follows:
 * every blocked label of fixtures/captures, its screen replayed into the
 * real emulator at the capture's size, then, many times over:
 *
 * - classify: the agent's manifest rules on lazy rows from the emulator
 *   (what the DetectionHub runs after every settle);
 * - prompt: reading what the blocked screen asks (prompt readers on rows
 *   and, for highlighted menus, cell styles), which the hub adds only while
 *   a session is blocked.
 *
 * p50/p95 µs per call, batched (timer resolution), in rounds (the machine
 * is shared; the best round's p95 is printed too). The figure that matters
 * is the ratio: prompt ÷ classify on the same screens in the same run.
 */

import { loadCatalog } from "../src/runtime/catalog.ts";
import { expectations, listCaptures, untilResized } from "../src/replay/fixtures.ts";
import { evaluate } from "../src/detect/rules.ts";
import { promptFor } from "../src/detect/prompt.ts";
import type { AgentStatus } from "../src/model/agent.ts";
import { terminalView } from "../src/session/screen_view.ts";
import { HeadlessTerminal } from "../src/session/terminal.ts";
import { measureMicros, median, type MicroFigures } from "./stats.ts";

const ITERATIONS = Number(Deno.env.get("BENCH_ITERATIONS") ?? "4000");
const ROUNDS = 5;

const BLOCKED: AgentStatus = {
  state: "blocked",
  kind: "permission",
  source: "screen",
  ruleId: "bench",
  seq: 1,
  since: 0,
  msg: null,
};

type Figures = MicroFigures;
const measure = (fn: () => unknown): Figures => measureMicros(fn, ITERATIONS, ROUNDS, 500);

const catalog = await loadCatalog({ userDir: null });
const captures = (await listCaptures(new URL("../fixtures/captures/", import.meta.url)))
  .map(untilResized);
const rows: [string, Figures, Figures][] = [];
const totals = { classify: [] as number[], prompt: [] as number[] };
for (const c of captures) {
  const manifest = catalog.get(c.meta.agent)!;
  // Blocked screens that ask something (a failed login asks nothing: its prompt is null).
  for (const e of expectations(c.truth).filter((x) => x.state === "blocked" && x.prompt)) {
    using term = new HeadlessTerminal({ cols: c.meta.cols, rows: c.meta.rows });
    term.write(c.bytes.subarray(0, e.offset));
    await term.flush();
    const read = () => promptFor(manifest.prompts, BLOCKED, terminalView(term));
    if (read() === null) throw new Error(`${c.name} @${e.offset}: no prompt read`);
    const classify = measure(() => evaluate(manifest, terminalView(term)));
    const prompt = measure(read);
    rows.push([`${c.name} @${e.offset}`, classify, prompt]);
    totals.classify.push(classify.p95);
    totals.prompt.push(prompt.p95);
  }
}

const load = (() => {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  } catch {
    return "unknown";
  }
})();
const f = (x: number) => x.toFixed(1).padStart(6);
console.log(
  `prompt reading: ${rows.length} blocked fixture screens, ${ITERATIONS} calls each in ` +
    `${ROUNDS} rounds, load average ${load}`,
);
console.log(
  `  ${"screen".padEnd(36)} classify p50/p95 (best)     prompt p50/p95 (best)   ratio p95`,
);
for (const [name, c, p] of rows) {
  console.log(
    `  ${name.padEnd(36)} ${f(c.p50)} ${f(c.p95)} (${f(c.bestP95)})  ` +
      `${f(p.p50)} ${f(p.p95)} (${f(p.bestP95)})  ${(p.p95 / c.p95).toFixed(2).padStart(6)}`,
  );
}
const worst = (xs: number[]) => Math.max(...xs);
console.log(
  `  worst p95: classify ${f(worst(totals.classify))} µs, prompt ${f(worst(totals.prompt))} µs; ` +
    `median ratio prompt ÷ classify: p50 ${
      median(rows.map(([, c, p]) => p.p50 / c.p50)).toFixed(2)
    }, p95 ${median(rows.map(([, c, p]) => p.p95 / c.p95)).toFixed(2)}`,
);
