/**
 * How to run lazyshell itself: built-in plugins (`__plugin <id>`) run this
 * very copy; hook commands written into agents' settings (`init --agents`,
 * the per-launch `--settings`) need a path that outlives it.
 *
 * An installed lazyshell is started by a launcher (bin/lazyshell, or the
 * wrapper tools/dist/install.ts writes for the compiled binary) that passes its
 * own stable path in LAZYSHELL_SELF, e.g. `~/.local/bin/lazyshell`. main.ts
 * adopts it first thing and removes it from the environment, so no session
 * or plugin inherits it. Otherwise the compiled binary is `Deno.execPath()`
 * and a checkout under `deno run` is `deno run -A <abs main.ts>`.
 */

import { which } from "../util/fs.ts";
import { adoptedLauncher } from "./launcher.ts";

/** argv prefix that starts this very lazyshell; append the subcommand and its arguments. */
export function selfCommand(): string[] {
  const adopted = adoptedLauncher();
  if (adopted !== null) return [adopted];
  if (Deno.build.standalone) return [Deno.execPath()];
  const main = new URL("../../main.ts", import.meta.url);
  return [Deno.execPath(), "run", "-A", "--no-prompt", "--quiet", main.pathname];
}

/**
 * Folders package managers may empty at any time: npx's `_npx`, npm's
 * cache, XDG and macOS caches (Deno's own DENO_DIR, pnpm dlx, bunx).
 */
const CACHE_DIR = /\/(_npx|\.npm|npm-cache|\.cache|Caches|\.bun\/install\/cache)\//;

export function inPackageCache(path: string): boolean {
  return CACHE_DIR.test(path.replaceAll("\\", "/"));
}

export interface StableCommand {
  readonly command: readonly string[];
  /** The cache path it still depends on (nothing better found), else null. */
  readonly cache: string | null;
}

/**
 * The command to write into an agent's settings: this lazyshell, unless it
 * runs from a package-manager cache (`npx deno task start`): then the
 * `lazyshell` installed on PATH, or, when there is none, this one with the
 * cache path reported so the caller can warn.
 */
export function stableCommand(
  self: readonly string[] = selfCommand(),
  path: string = Deno.env.get("PATH") ?? "",
): StableCommand {
  const cache = self.find((word) => word.startsWith("/") && inPackageCache(word)) ?? null;
  if (cache === null) return { command: self, cache: null };
  const installed = which("lazyshell", path);
  if (installed !== null && installed.startsWith("/") && !inPackageCache(installed)) {
    return { command: [installed], cache: null };
  }
  return { command: self, cache };
}
