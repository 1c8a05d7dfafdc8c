/**
 * `ctl` loads the verbs' specs, not their bodies (src/control/spec.ts): the
 * client parses argv, prints `--help` and formats replies from
 * src/control/specs/, and never loads src/control/verbs/ (the server's
 * side: git, sessions, typing, waiting). It was 54 modules, 191 KB, through
 * the diff verb's git code among others; with every spec 37, 102 KB; `ctl
 * VERB` loads that verb's spec alone (src/control/specs/load.ts), the whole
 * table only for `--help` or an unknown verb.
 */

import assert from "node:assert/strict";
import { info, ROOT, staticClosure } from "./module_graph.ts";
import { SPECS } from "../src/control/specs/mod.ts";
import { loadSpec, SPEC_LOADERS } from "../src/control/specs/load.ts";
import { VERBS } from "../src/control/verbs/mod.ts";

/** The modules `entry` loads before it runs (paths from the repository root). */
async function loaded(entry: string): Promise<string[]> {
  return [...staticClosure(await info(entry), entry)].map((s) => s.slice(ROOT.href.length));
}

Deno.test("ctl loads the verbs' specs, none of the server's code", async () => {
  for (const entry of ["src/ctl/client.ts", "src/remote/all_hosts.ts"]) {
    const modules = await loaded(entry);
    assert.ok(modules.includes("src/control/spec.ts"), modules.join(" "));
    // Not even the whole table of specs: the one verb asked for is imported when asked.
    const specs = modules.filter((s) => s.startsWith("src/control/specs/"));
    assert.ok(specs.every((s) => ["load.ts", "list.ts"].includes(s.split("/").at(-1)!)), entry);
    const control = modules.filter((s) =>
      s.startsWith("src/control/") && s !== "src/control/spec.ts" &&
      !s.startsWith("src/control/specs/")
    );
    assert.deepEqual(control, [], `${entry} loads the server's side of the verbs`);
    const server = modules.filter((s) =>
      /^src\/(session|runtime|tui|server\/(?!paths\.ts)|git\/(?!parse\.ts|removal_text\.ts))/
        .test(s)
    );
    assert.deepEqual(server, [], entry);
  }
});

Deno.test("the server's verbs are the specs ctl knows, in the same order, with their format", () => {
  assert.deepEqual(VERBS.map((v) => v.name), SPECS.map((s) => s.name));
  for (const [i, verb] of VERBS.entries()) {
    const spec = SPECS[i]!;
    assert.equal(verb.format, spec.format, verb.name);
    assert.equal(verb.args, spec.args, verb.name);
    assert.equal(verb.clientTimeoutMs, spec.clientTimeoutMs, verb.name);
    assert.equal(typeof verb.run, "function", verb.name);
  }
});

Deno.test("ctl loads each verb's spec by its name: the same table", async () => {
  assert.deepEqual(Object.keys(SPEC_LOADERS), SPECS.map((s) => s.name));
  for (const spec of SPECS) assert.equal(await loadSpec(spec.name), spec);
  assert.equal(await loadSpec("restart"), undefined);
  assert.equal(await loadSpec("toString"), undefined);
});
