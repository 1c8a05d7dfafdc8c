/**
 * `deno task eval`: replays every capture in fixtures/captures (or the
 * directory given) through the live detection engine (src/replay/replay.ts) and
 * prints, per agent, expected vs detected state at each labelled offset and
 * which rule fired — with OSC 7501 and the hooks (full pipeline) and with screen
 * rules alone; both with the keys typed — and how many blocked labels' prompts
 * are read exactly (the subject aside with screen rules alone: an OSC 7501 msg
 * is the subject in the full pipeline). Exit code 1 when any label is missed.
 */

import { loadCatalog } from "../src/runtime/catalog.ts";
import {
  captureReplay,
  expectations,
  listCaptures,
  samePromptExactly,
  untilResized,
} from "../src/replay/fixtures.ts";
import { replay } from "../src/replay/replay.ts";

const root = Deno.args[0]
  ? new URL(`${Deno.args[0].replace(/\/?$/, "/")}`, `file://${Deno.cwd()}/`)
  : new URL("../fixtures/captures/", import.meta.url);
const catalog = await loadCatalog();
for (const e of catalog.errors) console.error(`warning: ${e.message}`);
// At the recorded size: a resized capture up to its first resize (tests/fixtures_resize_test.ts
// reads the rest).
const captures = (await listCaptures(root)).map(untilResized);

interface Row {
  capture: string;
  offset: number;
  expected: string;
  full: string;
  screen: string;
  ok: boolean;
  /** Right with OSC 7501 (full pipeline), right with screen rules alone. */
  right: [boolean, boolean];
  /** Blocked labels with a prompt in the truth: read exactly (full pipeline, screen rules alone). */
  prompt?: [boolean, boolean];
}

const byAgent = new Map<string, Row[]>();
for (const c of captures) {
  const wanted = expectations(c.truth);
  const run = (declared: boolean) =>
    replay(c.bytes, wanted.map((w) => w.offset), captureReplay(c, catalog, declared));
  const [full, screen] = [await run(true), await run(false)];
  const rows = byAgent.get(c.meta.agent) ?? [];
  wanted.forEach((w, i) => {
    const f = full[i]!.status;
    const s = screen[i]!.status;
    const show = (x: typeof f) =>
      x ? `${x.state}${x.kind ? `:${x.kind}` : ""} (${x.source} ${x.ruleId})` : "-";
    const want = `${w.state}${w.kind ? `:${w.kind}` : ""}`;
    const match = (x: typeof f) =>
      x?.state === w.state && (w.kind === undefined || x.kind === w.kind);
    const prompt: [boolean, boolean] | undefined = w.state === "blocked" && w.prompt
      ? [
        samePromptExactly(full[i]!.prompt, w.prompt),
        samePromptExactly(screen[i]!.prompt, w.prompt, false),
      ]
      : undefined;
    const mark = (x: boolean | undefined) => (x === false ? " ✗prompt" : "");
    rows.push({
      capture: c.name,
      offset: w.offset,
      expected: want,
      full: show(f) + mark(prompt?.[0]),
      screen: show(s) + mark(prompt?.[1]),
      ok: match(f) && match(s),
      right: [match(f), match(s)],
      ...(prompt ? { prompt } : {}),
    });
  });
  byAgent.set(c.meta.agent, rows);
}

let missed = 0;
const prompts = { full: 0, screen: 0, all: 0 };
const labels = { full: 0, screen: 0, all: 0 };
for (const [agent, rows] of [...byAgent].sort(([a], [b]) => a.localeCompare(b))) {
  const good = rows.filter((r) => r.ok).length;
  missed += rows.length - good;
  const asked = rows.filter((r) => r.prompt);
  const exact = (i: 0 | 1) => asked.filter((r) => r.prompt![i]).length;
  prompts.full += exact(0);
  prompts.screen += exact(1);
  prompts.all += asked.length;
  labels.full += rows.filter((r) => r.right[0]).length;
  labels.screen += rows.filter((r) => r.right[1]).length;
  labels.all += rows.length;
  console.log(
    `\n${agent}: ${good}/${rows.length} labels (both variants); prompts exact ` +
      `${exact(0)}/${asked.length} (full pipeline), ${
        exact(1)
      }/${asked.length} (screen rules alone)`,
  );
  const widths = [28, 8, 22, 46];
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < widths.length ? c.padEnd(widths[i]!) : c)).join(" ");
  console.log(
    line(["capture", "offset", "expected", "full pipeline (7501)", "screen rules alone"]),
  );
  for (const r of rows) {
    console.log(
      line([r.capture, String(r.offset), `${r.ok ? " " : "✗"} ${r.expected}`, r.full, r.screen]),
    );
  }
}
console.log(
  `\n${missed === 0 ? "all labels match" : `${missed} label(s) missed`}; labels right ` +
    `${labels.full}/${labels.all} (full pipeline), ${labels.screen}/${labels.all} (screen rules ` +
    `alone); prompts exact ` +
    `${prompts.full}/${prompts.all} (full pipeline), ${prompts.screen}/${prompts.all} (screen rules alone)`,
);
Deno.exit(missed === 0 ? 0 : 1);
