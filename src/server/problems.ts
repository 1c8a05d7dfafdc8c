/**
 * The one validation of a user's set-up (README: Configuration; docs/manifests.md; docs/plugin-protocol.md): every mistake in
 * config.yml, the agent manifests and the plugin directory that lazyshell
 * would otherwise take in silence, one line each, each saying where (file:line)
 * and what to do. `lazyshell doctor` prints this list; the server puts it
 * in the runtime's state (`state.problems`), which it logs and every
 * attached TUI shows as its first message (count and first line): they
 * cannot disagree.
 *
 * Lives in server/ because it reads the TUI's key table (src/tui/core/keymap.ts)
 * beside the engine's config, catalog and plugin discovery, and the server
 * is where both meet (doctor, in cli/, imports it from here).
 */

import { CONFIG_KEYS, type LoadedConfig } from "../config/config.ts";
import type { Env } from "../config/paths.ts";
import { type ConfigError, messageOf } from "../errors.ts";
import { type Discovered, discoverPlugins } from "../plugin/discovery.ts";
import type { Catalog } from "../runtime/catalog.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { resolveKeymap } from "../tui/core/keymap.ts";
import { didYouMean } from "../util/nearest.ts";
import { which } from "../util/fs.ts";

export interface SetupInputs {
  readonly env: Env;
  /** config.yml as loaded, or why it could not be. */
  readonly config: LoadedConfig | ConfigError;
  readonly catalog: Pick<Catalog, "errors">;
  readonly plugins: Discovered;
}

/** Every problem, in file order (config, manifests, plugins), each once. */
export function setupProblems(inputs: SetupInputs): string[] {
  const out: string[] = [];
  const config = inputs.config;
  if ("config" in config) out.push(...configProblems(config, inputs));
  else out.push(`${messageOf(config)}: fix config.yml`);
  for (const e of inputs.catalog.errors) out.push(`${e.message}: fix or remove that file`);
  out.push(...inputs.plugins.problems);
  return [...new Set(out)];
}

/** `file:line` of a key of config.yml (the file alone when the key is not in it). */
function keyAt(loaded: LoadedConfig, path: string): string {
  const line = loaded.keyLines[path];
  return line === undefined ? loaded.file : `${loaded.file}:${line}`;
}

/** The `keys:` overrides that cannot be applied, one line each with file:line. */
export function keymapProblems(loaded: LoadedConfig): string[] {
  return resolveKeymap(loaded.config.keys).warnings.map((w) =>
    `${keyAt(loaded, `keys.${w.action}`)}: ${w.text}`
  );
}

function configProblems(loaded: LoadedConfig, inputs: SetupInputs): string[] {
  const at = (path: string) => keyAt(loaded, path);
  const out = [...loaded.warnings];
  // A top-level key nobody knows is a mistake unless a plugin has that id (P1).
  const ids = inputs.plugins.plugins.map((p) => p.id);
  for (const key of Object.keys(loaded.sections)) {
    if (ids.includes(key)) continue;
    out.push(
      `${at(key)}: Unknown key ${key}, no setting and no plugin has that name (ignored)${
        didYouMean(key, [...CONFIG_KEYS, ...ids])
      }`,
    );
  }
  out.push(...keymapProblems(loaded));
  const shell = loaded.config.shell;
  const path = inputs.env.PATH ?? "";
  if (shell !== null && which(shell, path) === null) {
    out.push(`${at("shell")}: shell: ${shell} is not an executable file: fix the path`);
  } else if (shell === null && inputs.env.SHELL && which(inputs.env.SHELL, path) === null) {
    out.push(
      `$SHELL is ${inputs.env.SHELL}, not an executable file: set shell: in ${loaded.file}`,
    );
  }
  return out;
}

/** The problems of a running runtime's config and catalog (the server sets them as state). */
export function runtimeProblems(runtime: Runtime, commands?: readonly string[]): string[] {
  return setupProblems({
    env: runtime.env,
    config: runtime.loaded,
    catalog: runtime.catalog,
    plugins: discoverPlugins({ env: runtime.env, ...(commands ? { commands } : {}) }),
  });
}
