import assert from "node:assert/strict";
import { screensAt } from "./screen.ts";

Deno.test("screensAt() renders a capture at each offset, in offset order", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/output.raw`, "\x1b]0;Agent\x07one\r\ntwo\x1b[1;1Hxne");
    await Deno.writeTextFile(`${dir}/meta.json`, JSON.stringify({ cols: 20, rows: 3 }));
    const [first, last] = await screensAt(dir, ["end", "13"]);
    assert.equal(first, '--- offset 13 title "Agent"\none');
    assert.match(last!, /^--- offset 27 title "Agent"\nxne\ntwo$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
