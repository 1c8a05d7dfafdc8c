/**
 * The hook path loads no commander, zod, yaml or node-pty (docs/hooks.md;
 * docs/architecture.md, Start-up): main.ts statically imports only deno.json, and the
 * hook module's whole graph is local Deno-only files; so is the client's
 * (it should start in about a bare Deno start-up), and so are the built-in
 * plugins' (each is a process of its own: zod alone cost it ~16 MB of RSS).
 */

import assert from "node:assert/strict";
import { closure, info, ROOT } from "./module_graph.ts";

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

/**
 * Loaded by the client only for `lazyshell restore` when no server runs and none is to be
 * started: it reads the manifests and the state file's schema (yaml, zod) as a server would.
 */
const RESTORE_WITHOUT_SERVER = "/src/restore/without_server.ts";

Deno.test("the client (lazyshell, attach, ls, kill-server) loads only local files, no npm package", async () => {
  for (const entry of ["src/client/main.ts", "src/client/client.ts"]) {
    const modules = await info(entry);
    // Every module it may load (dynamic imports too), but what only that restore path loads.
    const reached = closure(
      modules,
      entry,
      (d) => !d.isDynamic || !d.code?.specifier.endsWith(RESTORE_WITHOUT_SERVER),
    );
    for (const m of modules.filter((m) => reached.has(m.specifier))) {
      assert.match(m.specifier, /^file:\/\//, `the client graph pulls in ${m.specifier}`);
      for (const d of m.dependencies ?? []) {
        if (d.isDynamic) continue;
        assert.doesNotMatch(d.specifier, /^(npm:|node:|jsr:|zod|yaml|commander|@)/, m.specifier);
      }
    }
    assert.ok(reached.size >= 2, `${entry}: ${reached.size} modules`);
  }
  // That path is reached only dynamically, from the client's start (src/client/start.ts).
  const client = await info("src/client/client.ts");
  const edges = client.flatMap((m) =>
    (m.dependencies ?? []).filter((d) => d.code?.specifier.endsWith(RESTORE_WITHOUT_SERVER)).map((
      d,
    ) => [m.specifier, d.isDynamic])
  );
  assert.deepEqual(edges, [[new URL("src/client/start.ts", ROOT).href, true]]);
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
