/**
 * Rule cost (docs/architecture.md "Detection rules"): 20 manifest rules on a 200x60 screen, p50/p95 µs.
 *
 * - rules: the 20 rules on a screen already extracted (Snapshot lines),
 *   regions read lazily (bottom N non-empty rows, title);
 * - classify: the whole classification as the DetectionHub runs it — lazy
 *   rows straight from the emulator (session/screen_view.ts) + the rules;
 * - reference, same run: every rule on the joined whole screen, and that
 *   plus extracting every row (Snapshot) first — the naive detector.
 *
 * The screen is a full 200x60 transcript that no rule matches, so all 20
 * rules run to the end (the worst case; a real verdict stops at the first
 * match). Targets: rules ≤ 12 µs p95, classify ≤ 60 µs p95.
 *
 * Then each built-in agent's whole manifest classified the same way (every
 * rule runs), and opencode on a screen of its own blocks (blue bars): the
 * text pre-check of its colour rule (`turn-failed`, `cells`) holds, so one
 * cell colour is read per bar in its region — the colour rule's worst case.
 * Each is held to the classify budget.
 */

import { parseManifest } from "../src/detect/manifest.ts";
import { evaluate, RegionReader } from "../src/detect/rules.ts";
import { snapshotView } from "../src/model/snapshot.ts";
import type { Snapshot } from "../src/model/snapshot.ts";
import { terminalView } from "../src/session/screen_view.ts";
import { HeadlessTerminal } from "../src/session/terminal.ts";
import { measureMicros, type MicroFigures } from "./stats.ts";

const COLS = 200;
const ROWS = 60;
const ITERATIONS = Number(Deno.env.get("BENCH_ITERATIONS") ?? "20000");

/** 20 rules: the built-in Claude, Codex and opencode ones, as shipped. */
async function twentyRules() {
  const dir = new URL("../manifests/", import.meta.url);
  const rules = [];
  for (const id of ["claude", "codex", "opencode"]) {
    const m = parseManifest(await Deno.readTextFile(new URL(`${id}.yml`, dir)), `${id}.yml`);
    rules.push(...m.rules);
  }
  return parseManifest("id: bench\n", "bench.yml").rules.concat(rules.slice(0, 20));
}

function screenBytes(): string {
  const out: string[] = ["\x1b]0;build: make test\x07"];
  for (let i = 0; out.length < ROWS * 3; i++) {
    out.push(
      `● Step ${i}: still thinking about the problem, reading files and planning the next edit ` +
        `to the module under test; nothing needs the user yet.\r\n`,
    );
  }
  out.push(`${"─".repeat(COLS)}\r\n❯ \r\n${"─".repeat(COLS)}\r\n`);
  out.push("  running 412 tests · 398 passed · 14 pending");
  return out.join("");
}

const ROUNDS = 5;
type Figures = MicroFigures;
const measure = (fn: () => unknown): Figures => measureMicros(fn, ITERATIONS, ROUNDS);

const rules = await twentyRules();
const manifest = {
  ...parseManifest("id: bench\n", "bench.yml"),
  rules,
};
using term = new HeadlessTerminal({ cols: COLS, rows: ROWS });
term.write(screenBytes());
await term.flush();

const snapshot = (): Snapshot => ({
  cols: COLS,
  rows: ROWS,
  lines: term.visibleLines(),
  title: term.title,
  altScreen: term.altScreen,
  cursor: term.cursor,
  foreground: null,
});
const extracted = snapshot();
const verdict = evaluate(manifest, terminalView(term));

const joinedAll = () => {
  const joined = new RegionReader(snapshotView(extracted)).text({ type: "screen" });
  for (const r of rules) {
    const text = r.region.type === "title" ? extracted.title : joined;
    if (r.not.some((re) => re.test(text))) continue;
    if (!r.all.every((re) => re.test(text))) continue;
    if (r.any.length === 0 || r.any.some((re) => re.test(text))) return r.id;
  }
  return "fallback";
};

const results: [string, Figures, string][] = [
  [
    "rules (regions, extracted screen)",
    measure(() => evaluate(manifest, snapshotView(extracted))),
    "≤ 12",
  ],
  [
    "classify (lazy rows from the emulator + rules)",
    measure(() => evaluate(manifest, terminalView(term))),
    "≤ 60",
  ],
  ["reference: rules on the joined whole screen", measure(joinedAll), ""],
  [
    "reference: Snapshot extraction + joined rules",
    measure(() => {
      const s = snapshot();
      return s.lines.length + joinedAll().length;
    }),
    "",
  ],
];

/** Each built-in agent's manifest, whole, on the transcript no rule matches. */
for (const id of ["claude", "codex", "opencode", "gemini", "qwen"]) {
  const dir = new URL("../manifests/", import.meta.url);
  const m = parseManifest(await Deno.readTextFile(new URL(`${id}.yml`, dir)), `${id}.yml`);
  results.push([
    `classify, ${id} manifest (${m.rules.length} rules)`,
    measure(() => evaluate(m, terminalView(term))),
    "≤ 60",
  ]);
}

/** opencode's idle screen after a few turns: blue-barred blocks up to the footer. */
function opencodeBlocks(): string {
  const bar = "\x1b[38;2;92;156;245m┃\x1b[0m";
  const out: string[] = ["\x1b]0;OpenCode\x07"];
  for (let i = 0; out.length < ROWS - 4; i++) {
    out.push(`  ${bar}  Step ${i}: the user's message, quoted in a block with a bar\r\n`);
    out.push(`  ${bar}\r\n`);
  }
  out.push(`  ╹${"▀".repeat(COLS - 4)}\r\n`);
  out.push(`   ~/work${" ".repeat(COLS - 40)}tab agents  ctrl+p commands`);
  return out.join("");
}
{
  const m = parseManifest(
    await Deno.readTextFile(new URL("../manifests/opencode.yml", import.meta.url)),
    "opencode.yml",
  );
  using blocks = new HeadlessTerminal({ cols: COLS, rows: ROWS });
  blocks.write(opencodeBlocks());
  await blocks.flush();
  const v = evaluate(m, terminalView(blocks));
  results.push([
    `classify, opencode on its blocks (${v.state}/${v.ruleId})`,
    measure(() => evaluate(m, terminalView(blocks))),
    "≤ 60",
  ]);
}

const load = (() => {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  } catch {
    return "unknown";
  }
})();
console.log(
  `rule cost: ${rules.length} rules, ${COLS}x${ROWS} screen, verdict ${verdict.state} ` +
    `(${verdict.ruleId}), ${ITERATIONS} runs in ${ROUNDS} rounds, load average ${load}`,
);
for (const [name, { p50, p95, bestP95 }, target] of results) {
  const f = (x: number) => x.toFixed(1).padStart(6);
  console.log(
    `  ${name.padEnd(47)} p50 ${f(p50)} µs  p95 ${f(p95)} µs  best-round p95 ${f(bestP95)} µs` +
      (target ? `  (target p95 ${target})` : ""),
  );
}
const [rulesOnly, classify, joined, naive] = results.map(([, r]) => r.p50);
console.log(
  `  ratios (p50): rules ÷ joined-screen rules = ${(rulesOnly! / joined!).toFixed(2)}, ` +
    `classify ÷ snapshot+joined rules = ${(classify! / naive!).toFixed(2)}`,
);
