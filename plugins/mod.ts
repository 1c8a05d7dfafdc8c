/**
 * Built-in plugins, started as `lazyshell __plugin <id> serve` (docs/architecture.md,
 * Self-invocation). Each speaks protocol v1 (plus its opt-in extensions) over
 * stdin/stdout exactly like a third-party plugin. Static imports so that
 * `deno compile` embeds them.
 */

import { AgentsTab } from "./agents/agents.ts";
import { ChangesTab } from "./changes/changes.ts";
import { EnvTab } from "./env/env.ts";
import { StatsTab } from "./stats/stats.ts";
import { WatchersTab } from "./watchers/watchers.ts";
import { serveStdio, type TabPlugin } from "./_sdk.ts";

const BUILTINS: Record<string, () => TabPlugin> = {
  agents: () => new AgentsTab(),
  watchers: () => new WatchersTab(),
  stats: () => new StatsTab(),
  env: () => new EnvTab(),
  changes: () => new ChangesTab(),
};

/** `__plugin <id> <mode> [args...]` → exit code. */
export async function runBuiltin(args: readonly string[]): Promise<number> {
  const [id, mode] = args;
  const make = id === undefined ? undefined : BUILTINS[id];
  if (!make) {
    console.error(`lazyshell: No built-in plugin ${JSON.stringify(id ?? "")}`);
    return 2;
  }
  if (mode === "serve") return await serveStdio(make());
  if (mode === "doctor") return 0; // built-ins declare doctor: false; nothing to check
  console.error(`lazyshell: The built-in tab ${id} has no command line (${mode ?? "no mode"})`);
  return 2;
}
