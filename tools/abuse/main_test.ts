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
