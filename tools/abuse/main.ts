/**
 * `deno task abuse [ID...]`: replays the attacks of tools/abuse/README.md against a real
 * `lazyshell serve` (control on, temporary HOME and XDG directories) and
 * prints, per item, the bound that held: peak server RSS against before
 * (target ≤ 2×), `ctl list` p99 while the abuse runs, time to refuse, and
 * whether the server survived. Items are the files of items/ (one per
 * attack, found by listing the directory: adding one touches no other
 * file). See README.md.
 */

import { type AbuseItem, mb, type Measured, runItem, secs } from "./harness.ts";

const ITEMS_DIR = new URL("./items/", import.meta.url);
const RSS_TARGET = 2;

export async function loadItems(): Promise<AbuseItem[]> {
  const names = [...Deno.readDirSync(ITEMS_DIR)]
    .filter((e) => e.isFile && /^\d.*\.ts$/.test(e.name) && !e.name.endsWith("_test.ts"))
    .map((e) => e.name)
    .sort();
  const items: AbuseItem[] = [];
  for (const name of names) {
    const module = await import(new URL(name, ITEMS_DIR).href);
    const item = module.default as AbuseItem | undefined;
    if (!item || typeof item.run !== "function") {
      throw new Error(`tools/abuse/items/${name}: no default export {id, title, run}`);
    }
    items.push(item);
  }
  return items;
}

function report(item: AbuseItem, m: Measured): { held: boolean; lines: string[] } {
  const lines = [`${item.id}  ${item.title}`];
  const row = (label: string, text: string) => lines.push(`    ${label.padEnd(9)} ${text}`);
  const ratio = m.rssBefore > 0 ? m.rssPeak / m.rssBefore : null;
  const memoryOk = ratio === null || ratio <= RSS_TARGET;
  const held = m.error === null && (m.outcome?.ok ?? false) && memoryOk && m.survived !== false;
  row("bound", m.error !== null ? `ERROR: ${m.error}` : m.outcome!.bound);
  if (ratio !== null) {
    row(
      "memory",
      `${mb(m.rssBefore)} before, ${mb(m.rssPeak)} peak: ${ratio.toFixed(2)}× ` +
        `(target ≤ ${RSS_TARGET}×)${memoryOk ? "" : " OVER"}`,
    );
  }
  if (m.survived !== null) {
    row(
      "ctl list",
      m.listP99 === null
        ? `no answer during the abuse (${m.listFailed} failed)`
        : `p99 ${
          secs(m.listP99)
        } during the abuse (${m.listCount} answered, ${m.listFailed} failed)`,
    );
  }
  if (m.outcome?.refusedMs !== undefined) row("refused", `after ${secs(m.outcome.refusedMs)}`);
  if (m.survived !== null) row("survived", m.survived ? "yes" : "NO");
  row("held", `${held ? "yes" : "NO"} (${secs(m.ms)})`);
  return { held, lines };
}

export async function main(argv: string[]): Promise<number> {
  const all = await loadItems();
  const items = argv.length === 0 ? all : all.filter((i) => argv.some((a) => i.id.startsWith(a)));
  if (items.length === 0) {
    console.error(`No item matches ${argv.join(" ")} (items: ${all.map((i) => i.id).join(", ")})`);
    return 2;
  }
  console.log(`lazyshell abuse: ${items.length} items, load ${Deno.loadavg()[0]!.toFixed(1)}`);
  const summary: string[] = [];
  for (const item of items) {
    const { held, lines } = report(item, await runItem(item));
    console.log(lines.join("\n"));
    summary.push(`${held ? "held" : "FAIL"}  ${item.id}  ${item.title}`);
  }
  console.log(["", ...summary].join("\n"));
  return summary.every((s) => s.startsWith("held")) ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
