import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { bundleText } from "../../tools/web/assets.ts";
import { ASSETS } from "./assets/bundle.gen.ts";

Deno.test("the compiled-in assets are the sources' (deno run -A tools/web/assets.ts)", async () => {
  const now = await Deno.readTextFile(new URL("./assets/bundle.gen.ts", import.meta.url));
  assert.ok(now === await bundleText(), "bundle.gen.ts is out of date: run tools/web/assets.ts");
});

Deno.test("the page's assets are under 1 MB compressed", () => {
  const bytes = Object.values(ASSETS).reduce((n, a) => n + gzipSync(a.body).length, 0);
  assert.ok(bytes < 1_000_000, `${bytes} bytes gzipped`);
  assert.deepEqual(Object.keys(ASSETS).sort(), [
    "/assets/app.css",
    "/assets/app.js",
    "/assets/xterm.css",
    "/assets/xterm.mjs",
    "/index.html",
  ]);
});
