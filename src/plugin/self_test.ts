import assert from "node:assert/strict";
import { inPackageCache, selfCommand, stableCommand } from "./self.ts";

Deno.test("inPackageCache: npx, npm and XDG/macOS caches; an installed command is not", () => {
  for (
    const path of [
      "/home/u/.npm/_npx/1a2b3c/node_modules/deno/deno",
      "/home/u/.cache/deno/npm/registry.npmjs.org/x/main.ts",
      "/Users/u/Library/Caches/pnpm/dlx/abc/node_modules/.bin/lazyshell",
      "C:\\Users\\u\\AppData\\Local\\npm-cache\\_npx\\1\\deno.exe",
    ]
  ) assert.equal(inPackageCache(path), true, path);
  for (
    const path of [
      "/home/u/.local/bin/lazyshell",
      "/usr/lib/node_modules/deno/deno",
      "/home/u/src/lazyshell/main.ts",
    ]
  ) assert.equal(inPackageCache(path), false, path);
});

Deno.test("stableCommand: a run from npx's cache prefers the lazyshell installed on PATH", () => {
  const bin = Deno.makeTempDirSync();
  try {
    const npx = ["/home/u/.npm/_npx/1a2b/node_modules/deno/deno", "run", "-A", "/src/main.ts"];
    // Nothing installed: this copy, with the cache named so init --agents can warn.
    assert.deepEqual(stableCommand(npx, bin), { command: npx, cache: npx[0] });
    Deno.writeTextFileSync(`${bin}/lazyshell`, "#!/bin/sh\n", { mode: 0o755 });
    assert.deepEqual(stableCommand(npx, bin), { command: [`${bin}/lazyshell`], cache: null });
    // Not from a cache: this very copy, whatever is on PATH.
    const installed = ["/home/u/.local/bin/lazyshell"];
    assert.deepEqual(stableCommand(installed, bin), { command: installed, cache: null });
  } finally {
    Deno.removeSync(bin, { recursive: true });
  }
});

Deno.test("selfCommand under deno run: this main.ts, quiet (no Download lines on stderr)", () => {
  const self = selfCommand();
  assert.equal(self[0], Deno.execPath());
  assert.ok(self.includes("--quiet"));
  assert.equal(self.at(-1), new URL("../../main.ts", import.meta.url).pathname);
});
