/**
 * Which plugins exist and how to run them (docs/plugin-protocol.md).
 *
 * User plugins are executables in `$XDG_CONFIG_HOME/lazyshell/plugins/`;
 * the id is the file name without extension and must match PLUGIN_ID and
 * not collide with a built-in tab or a CLI command. Built-in tabs are
 * plugins too, run from lazyshell's own binary (`__plugin <id>`).
 * Every mode gets the five LAZYSHELL_* variables (pluginEnv).
 */

import { configDir, dataDir, type Env, pluginDir } from "../config/paths.ts";
import { BUILTIN_MANIFESTS } from "./builtins.ts";
import { type Manifest, PLUGIN_ID, PROTOCOL_VERSION } from "./protocol.ts";
import { selfCommand } from "./self.ts";

/** Tabs lazyshell ships; `sessions` is drawn by the TUI, the rest are built-in plugins. */
export const BUILTIN_TABS = [
  "sessions",
  "agents",
  "watchers",
  "stats",
  "env",
  "changes",
] as const;
export const BUILTIN_PLUGINS = ["agents", "watchers", "stats", "env", "changes"] as const;
export type BuiltinPluginId = typeof BUILTIN_PLUGINS[number];

/** CLI commands a plugin id may not shadow (program.ts adds whatever it registers). */
export const RESERVED_COMMANDS = [
  "start",
  "serve",
  "hook",
  "ctl",
  "init",
  "doctor",
  "detect",
  "help",
  "version",
  "plugin",
  "__plugin",
];

export interface PluginEntry {
  readonly id: string;
  /** argv[0..] to run it; the mode (`serve`, `doctor`, user args) is appended. */
  readonly command: readonly string[];
  readonly builtin: boolean;
  /** The executable file (user plugins) or `builtin:<id>`. */
  readonly source: string;
  /**
   * Started when first needed (its tab shown, one of its commands run), not
   * at launch; stopped again while hidden (src/plugin/tabs.ts). The built-ins.
   */
  readonly onDemand?: boolean;
  /** What its tab shows before it has started: its manifest, known in advance (the built-ins). */
  readonly manifest?: Manifest;
}

export interface Discovered {
  readonly plugins: readonly PluginEntry[];
  /** One line each: a file that is not a usable plugin, and why / how to fix it. */
  readonly problems: readonly string[];
}

export interface DiscoverOptions {
  readonly env: Env;
  /** Commands the CLI registers, in addition to RESERVED_COMMANDS. */
  readonly commands?: readonly string[];
  /** Leave the built-in plugins out (tests, `lazyshell <id>` lookup). */
  readonly builtins?: boolean;
}

/** The id of a plugin file name, or null when it cannot be one. */
export function idOf(fileName: string): string | null {
  const dot = fileName.indexOf(".", 1);
  const id = dot < 0 ? fileName : fileName.slice(0, dot);
  return PLUGIN_ID.test(id) ? id : null;
}

export function builtinEntry(id: BuiltinPluginId): PluginEntry {
  return {
    id,
    command: [...selfCommand(), "__plugin", id],
    builtin: true,
    source: `builtin:${id}`,
    onDemand: true,
    manifest: BUILTIN_MANIFESTS[id],
  };
}

/** Lists built-in and user plugins; never throws for a bad file (it becomes a problem). */
export function discoverPlugins(options: DiscoverOptions): Discovered {
  const plugins: PluginEntry[] = options.builtins === false
    ? []
    : BUILTIN_PLUGINS.map(builtinEntry);
  const problems: string[] = [];
  const reserved = new Set([...RESERVED_COMMANDS, ...(options.commands ?? [])]);
  const dir = pluginDir(options.env);
  let names: string[];
  try {
    names = [...Deno.readDirSync(dir)].filter((e) => !e.name.startsWith(".")).map((e) => e.name)
      .sort();
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      problems.push(`${dir}: Cannot read the plugin directory: ${(error as Error).message}`);
    }
    return { plugins, problems };
  }
  const taken = new Map<string, string>();
  for (const name of names) {
    const path = `${dir}/${name}`;
    const id = idOf(name);
    if (id === null) {
      problems.push(
        `${path}: Not a plugin id (the name without extension must match ^[a-z0-9][a-z0-9_-]{0,31}$): rename it`,
      );
      continue;
    }
    if ((BUILTIN_TABS as readonly string[]).includes(id)) {
      problems.push(`${path}: Plugin id "${id}" collides with the built-in tab "${id}": rename it`);
      continue;
    }
    if (reserved.has(id)) {
      problems.push(
        `${path}: Plugin id "${id}" collides with the command "lazyshell ${id}": rename it`,
      );
      continue;
    }
    const first = taken.get(id);
    if (first !== undefined) {
      problems.push(`${path}: Plugin id "${id}" is already used by ${first}: remove or rename one`);
      continue;
    }
    const problem = executableProblem(path);
    if (problem !== null) {
      problems.push(`${path}: ${problem}`);
      continue;
    }
    taken.set(id, path);
    plugins.push({ id, command: [path], builtin: false, source: path });
  }
  return { plugins, problems };
}

function executableProblem(path: string): string | null {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (error) {
    return `Cannot read: ${(error as Error).message}`;
  }
  if (!info.isFile) return "Not a file (a plugin is one executable file): move it away";
  if (Deno.build.os !== "windows" && info.mode !== null && (info.mode & 0o111) === 0) {
    return `Not executable: chmod +x ${path}`;
  }
  return null;
}

export interface PluginDirs {
  readonly home: string;
  readonly configDir: string;
  /** The plugin's own data directory (`<data>/plugins/<id>`). */
  readonly dataDir: string;
  /** Where lazyshell's own files live (manifests/, plugins/). */
  readonly libraryDir: string;
}

export function pluginDirs(env: Env, id: string): PluginDirs {
  return {
    home: env.HOME ?? env.USERPROFILE ?? "/",
    configDir: configDir(env),
    dataDir: `${dataDir(env)}/plugins/${id}`,
    libraryDir: libraryDir(),
  };
}

/** lazyshell's install directory: the repository root, or the compiled binary's directory. */
export function libraryDir(): string {
  if (Deno.build.standalone) {
    const exe = Deno.execPath();
    return exe.slice(0, Math.max(exe.lastIndexOf("/"), exe.lastIndexOf("\\")));
  }
  return new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
}

/** The five variables every mode gets (P2), on top of the caller's environment. */
export function pluginEnv(env: Env, id: string): Record<string, string> {
  const dirs = pluginDirs(env, id);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  out.LAZYSHELL_HOME = dirs.home;
  out.LAZYSHELL_CONFIG_DIR = dirs.configDir;
  out.LAZYSHELL_DATA_DIR = dirs.dataDir;
  out.LAZYSHELL_LIBRARY_DIR = dirs.libraryDir;
  out.LAZYSHELL_PROTOCOL = String(PROTOCOL_VERSION);
  return out;
}
