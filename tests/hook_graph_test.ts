/**
 * The hook path loads no commander, zod, yaml or node-pty (docs/hooks.md;
 * docs/architecture.md, Start-up): main.ts statically imports only deno.json, and the
 * hook module's whole graph is local Deno-only files; so is the client's
 * (it should start in about a bare Deno start-up), and so are the built-in
 * plugins' (each is a process of its own: zod alone cost it ~16 MB of RSS).
 */

import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

interface InfoModule {
  specifier: string;
  dependencies?: { specifier: string; code?: { specifier: string }; isDynamic?: boolean }[];
}

async function info(entry: string): Promise<InfoModule[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL(entry, ROOT).pathname],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout)).modules;
}

Deno.test("main.ts imports nothing statically but deno.json", async () => {
  const modules = await info("main.ts");
  const main = modules.find((m) => m.specifier.endsWith("/main.ts"))!;
  const statics = (main.dependencies ?? []).filter((d) => !d.isDynamic).map((d) => d.specifier);
  assert.deepEqual(statics, ["./deno.json"]);
  const dynamics = (main.dependencies ?? []).filter((d) => d.isDynamic).map((d) => d.specifier);
  assert.ok(dynamics.includes("./src/cli/hook.ts"));
});

Deno.test("the hook module graph holds only local files (no npm:, node:, jsr:)", async () => {
  const modules = await info("src/cli/hook.ts");
  const specifiers = modules.map((m) => m.specifier);
  assert.ok(specifiers.length >= 2);
  for (const s of specifiers) assert.match(s, /^file:\/\//, `hook graph pulls in ${s}`);
  for (const m of modules) {
    for (const d of m.dependencies ?? []) {
      assert.doesNotMatch(d.specifier, /^(npm:|node:|jsr:|zod|yaml|commander|@)/, m.specifier);
    }
  }
});

Deno.test("the client (lazyshell, attach, ls, kill-server) loads only local files, no npm package", async () => {
  for (const entry of ["src/client/main.ts", "src/client/client.ts"]) {
    const modules = await info(entry);
    for (const m of modules) {
      assert.match(m.specifier, /^file:\/\//, `the client graph pulls in ${m.specifier}`);
      for (const d of m.dependencies ?? []) {
        if (d.isDynamic) continue;
        assert.doesNotMatch(d.specifier, /^(npm:|node:|jsr:|zod|yaml|commander|@)/, m.specifier);
      }
    }
  }
});

Deno.test("the built-in plugins load only local files, no npm package (not even as types)", async () => {
  const modules = await info("plugins/mod.ts");
  for (const m of modules) {
    assert.match(m.specifier, /^file:\/\//, `the plugins' graph pulls in ${m.specifier}`);
    for (const d of m.dependencies ?? []) {
      assert.doesNotMatch(d.specifier, /^(npm:|node:|jsr:|zod|yaml|commander|@)/, m.specifier);
    }
  }
  assert.ok(!modules.some((m) => m.specifier.endsWith("/src/plugin/protocol.ts")));
});
