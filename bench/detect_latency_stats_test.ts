import assert from "node:assert/strict";
import { analyse, percentile } from "./detect_latency_stats.ts";

const truth = [
  { t: 0, state: "idle" },
  { t: 1000, state: "working" },
  { t: 2000, state: "blocked" },
  { t: 4000, state: "working" },
  { t: 6000, state: "blocked" },
  { t: 8000, state: "working" },
  { t: 9000, state: "idle" },
];
const change = (t: number, state: string, rule = "r") => ({ t, state, rule, source: "screen" });

Deno.test("analyse() measures latency to blocked and afterglow per true prompt", () => {
  const r = analyse(truth, [
    change(0, "idle"),
    change(1020, "working"),
    change(2030, "blocked"),
    change(4040, "working"),
    change(6010, "blocked"),
    change(8100, "working"),
    change(9030, "done"),
  ], 10000);
  assert.equal(r.prompts, 2);
  assert.equal(r.misses, 0);
  assert.deepEqual(r.latencies, [30, 10]);
  assert.deepEqual(r.afterglow, { p50: 40, p95: 100, max: 100 });
  assert.equal(r.falseWorking + r.falseIdle, 0);
});

Deno.test("analyse() counts a missed prompt and false episodes by the true state", () => {
  const r = analyse(truth, [
    change(0, "idle"),
    change(500, "blocked", "idle-trap"),
    change(600, "idle"),
    change(1500, "blocked", "work-trap"),
    change(1600, "working"),
    change(6020, "blocked"),
    change(8010, "working"),
  ], 10000);
  assert.equal(r.misses, 1);
  assert.equal(r.falseIdle, 1);
  assert.equal(r.falseWorking, 1);
  assert.deepEqual(r.falseEpisodes.map((f) => [f.rule, f.truth, f.ms]), [
    ["idle-trap", "idle", 100],
    ["work-trap", "working", 100],
  ]);
});

Deno.test("percentile() is nearest-rank", () => {
  assert.equal(percentile([], 50), null);
  assert.equal(percentile([1, 2, 3, 4], 50), 2);
  assert.equal(percentile([1, 2, 3, 4], 95), 4);
});
