import assert from "node:assert/strict";
import { loadItems } from "./main.ts";

Deno.test("every file of tools/abuse/items is an item with a unique id, in name order", async () => {
  const items = await loadItems();
  assert.ok(items.length >= 9);
  const ids = items.map((i) => i.id);
  assert.equal(new Set(ids).size, ids.length, `duplicate ids: ${ids.join(", ")}`);
  for (const item of items) {
    assert.ok(item.title.length > 0 && typeof item.run === "function", item.id);
  }
  assert.deepEqual(ids, [...ids].sort());
});

Deno.test("the README lists every item by its id and file", async () => {
  const readme = await Deno.readTextFile(new URL("./README.md", import.meta.url));
  const rows = [...readme.matchAll(/^\| (\w+) +\|.*\| `([\w.]+)` +\|$/gm)].map((m) =>
    `${m[1]} ${m[2]}`
  );
  const files = [...Deno.readDirSync(new URL("./items/", import.meta.url))].map((e) => e.name)
    .filter((n) => n.endsWith(".ts")).sort();
  const items = await loadItems();
  assert.deepEqual(rows, items.map((item, i) => `${item.id} ${files[i]}`));
});
