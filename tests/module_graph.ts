/** What `deno info --json` says an entry point loads, for the start-up graph tests. */

import assert from "node:assert/strict";

/** The repository root, as a URL ending in `/`. */
export const ROOT = new URL("../", import.meta.url);

export interface InfoModule {
  specifier: string;
  dependencies?: { specifier: string; code?: { specifier: string }; isDynamic?: boolean }[];
}

/** Every module of `entry`'s graph (a path from the repository root), as `deno info` lists it. */
export async function info(entry: string): Promise<InfoModule[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL(entry, ROOT).pathname],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout)).modules;
}

type Dependency = NonNullable<InfoModule["dependencies"]>[number];

/** The modules reachable from `entry` through the edges `follow` takes. */
export function closure(
  modules: InfoModule[],
  entry: string,
  follow: (d: Dependency) => boolean,
): Set<string> {
  const bySpecifier = new Map(modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const visit = (specifier: string) => {
    if (seen.has(specifier)) return;
    seen.add(specifier);
    for (const d of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (follow(d) && d.code) visit(d.code.specifier);
    }
  };
  visit(new URL(entry, ROOT).href);
  return seen;
}

/** The modules `entry` loads before it runs: its static imports (not types), transitively. */
export function staticClosure(modules: InfoModule[], entry: string): Set<string> {
  return closure(modules, entry, (d) => !d.isDynamic);
}
