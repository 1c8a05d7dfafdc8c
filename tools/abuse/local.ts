/**
 * Runs the abuse items given by number (`deno run -A tools/abuse/local.ts 2 7`)
 * or every item in items/, one after the other, and prints one line per item.
 * For items of item.ts's shape (they start their own servers); tools/abuse's
 * main harness, once merged, runs them too (`server: false`, `ok`/`bound`).
 */

import type { AbuseContext, AbuseItem } from "./item.ts";

const dir = new URL("./items/", import.meta.url);
const items: AbuseItem[] = [];
for (const entry of [...Deno.readDirSync(dir)].sort((a, b) => a.name.localeCompare(b.name))) {
  if (!/^\d\d_.*\.ts$/.test(entry.name)) continue;
  items.push((await import(new URL(entry.name, dir).href)).default as AbuseItem);
}
const wanted = Deno.args.map(Number).filter((n) => Number.isInteger(n));
const ctx: AbuseContext = { log: (line) => console.error(`  ${line}`) };
let failed = 0;
for (const item of items) {
  if (wanted.length > 0 && !wanted.includes(Number(item.id))) continue;
  console.error(`item ${item.id}: ${item.title}`);
  const result = await item.run(ctx);
  if (!result.held) failed++;
  console.log(`${result.held ? "held  " : "BROKEN"} ${item.id} ${result.summary}`);
}
Deno.exit(failed === 0 ? 0 : 1);
