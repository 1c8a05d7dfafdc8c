/**
 * `deno task eval`: replays every capture in fixtures/captures (or the
 * directory given) through the live detection engine (src/replay/replay.ts) and
 * prints, per agent, expected vs detected state at each labelled offset and
 * which rule fired — with OSC 7501 and the hooks (full pipeline) and with screen
 * rules alone; both with the keys typed. Exit code 1 when any label is missed.
 */

import { loadCatalog } from "../src/runtime/catalog.ts";
import { captureReplay, expectations, listCaptures } from "../src/replay/fixtures.ts";
import { replay } from "../src/replay/replay.ts";

const root = Deno.args[0]
  ? new URL(`${Deno.args[0].replace(/\/?$/, "/")}`, `file://${Deno.cwd()}/`)
  : new URL("../fixtures/captures/", import.meta.url);
const catalog = await loadCatalog();
for (const e of catalog.errors) console.error(`warning: ${e.message}`);
const captures = await listCaptures(root);

interface Row {
  capture: string;
  offset: number;
  expected: string;
  full: string;
  screen: string;
  ok: boolean;
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
    rows.push({
      capture: c.name,
      offset: w.offset,
      expected: want,
      full: show(f),
      screen: show(s),
      ok: match(f) && match(s),
    });
  });
  byAgent.set(c.meta.agent, rows);
}

let missed = 0;
for (const [agent, rows] of [...byAgent].sort(([a], [b]) => a.localeCompare(b))) {
  const good = rows.filter((r) => r.ok).length;
  missed += rows.length - good;
  console.log(`\n${agent}: ${good}/${rows.length} labels (both variants)`);
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
console.log(`\n${missed === 0 ? "all labels match" : `${missed} label(s) missed`}`);
Deno.exit(missed === 0 ? 0 : 1);
