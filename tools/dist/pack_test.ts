import assert from "node:assert/strict";
import denoJson from "../../deno.json" with { type: "json" };
import packageJson from "../../package.json" with { type: "json" };
import { toJsSpecifiers, transpile } from "./pack.ts";

Deno.test("transpile: types go, relative .ts specifiers become .js, bare ones stay", () => {
  const js = transpile(
    [
      'import type { A } from "./a.ts";',
      'import { b } from "../b.ts";',
      'import { z } from "zod";',
      "enum Mode { On }",
      "export const x: A | null = b(z, Mode.On);",
      'export const lazy = () => import("./c.ts");',
      'export const main = new URL("../../main.ts", import.meta.url);',
    ].join("\n"),
  );
  assert.doesNotMatch(js, /\.ts["']/);
  assert.match(js, /from "\.\.\/b\.js"/);
  assert.match(js, /from "zod"/);
  assert.match(js, /import\("\.\/c\.js"\)/);
  assert.match(js, /"\.\.\/\.\.\/main\.js"/);
  assert.doesNotMatch(js, /: A \| null|import type/);
  assert.equal(toJsSpecifiers('"./x.ts.bak" "pkg.ts" "./y.ts"'), '"./x.ts.bak" "pkg.ts" "./y.js"');
});

Deno.test("package.json pins what deno.json imports (npm installs what Deno resolves)", () => {
  const imports = Object.entries(denoJson.imports)
    // Tests only; the page's xterm.js is copied into src/web/assets/vendor.gen.ts.
    .filter(([name]) => !["fast-check", "playwright-core", "@xterm/xterm"].includes(name))
    .map(([name, spec]) => [name, spec.slice(`npm:${name}@`.length)]);
  assert.deepEqual(Object.entries(packageJson.dependencies).sort(), imports.sort());
  assert.equal(packageJson.version, denoJson.version);
});

Deno.test("Deno itself is an optional npm dependency, and Deno never installs it here", () => {
  // The pinned Deno is the README's (npx --yes deno@X).
  const readme = Deno.readTextFileSync(new URL("../../README.md", import.meta.url));
  const pinned = /npx --yes deno@([\d.]+) task/.exec(readme)?.[1];
  assert.equal(packageJson.optionalDependencies.deno, pinned);
  // Deno reads package.json too; it leaves optionalDependencies alone, else every
  // checkout would download the 40 MB deno package into node_modules.
  const lock = Deno.readTextFileSync(new URL("../../deno.lock", import.meta.url));
  assert.doesNotMatch(lock, /"(npm:)?deno@/);
});
