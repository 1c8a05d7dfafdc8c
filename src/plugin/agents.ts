/**
 * The `agents` message (docs/plugin-protocol.md) and the agents tab / doctor data: for each
 * catalogued agent, whether one of its executables is on PATH, its
 * `--version`, where its manifest came from and its hook integration.
 *
 * Takes the catalog as plain data (the caller maps src/runtime/catalog.ts), so
 * this module never imports runtime/.
 */

import { type HookStatus, hookStatus, type ReadText } from "./hook_status.ts";
import type { AgentEntry } from "./protocol.ts";
import { readSettingsFile } from "../config/read_file.ts";
import { which } from "../util/fs.ts";

export interface CatalogAgent {
  readonly id: string;
  readonly name: string;
  /** Executable names from the manifest's identity.processes. */
  readonly processes: readonly string[];
  /** A built-in manifest (else a user file in $XDG_CONFIG_HOME/lazyshell/agents). */
  readonly builtin: boolean;
}

export interface AgentReport extends AgentEntry {
  readonly path: string | null;
  readonly hookStatus: HookStatus;
}

/** Where an agent keeps its settings (managedDir) and what it reads; data, not code. */
const AGENT_DIRS: Readonly<Record<string, { managed: string; read: readonly string[] }>> = {
  claude: { managed: ".claude", read: [".claude", ".claude/skills", ".claude/commands"] },
  codex: { managed: ".codex", read: [".codex", ".codex/prompts"] },
  gemini: { managed: ".gemini", read: [".gemini"] },
  qwen: { managed: ".qwen", read: [".qwen"] },
  opencode: { managed: ".config/opencode", read: [".config/opencode"] },
};

/** `<bin> --version` → the first version-looking token, within `ms`; null if none. */
export async function versionOf(bin: string, ms = 5000): Promise<string | null> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(bin, {
      args: ["--version"],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      detached: Deno.build.os !== "windows",
    }).spawn();
  } catch {
    return null;
  }
  const timer = setTimeout(() => {
    try {
      if (Deno.build.os === "windows") child.kill("SIGKILL");
      else Deno.kill(-child.pid, "SIGKILL");
    } catch { /* gone */ }
  }, ms);
  try {
    const out = await child.output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    return text.match(/\d+\.\d+(\.\d+)?([-+.][0-9A-Za-z.-]+)?/)?.[0] ?? null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

export interface DetectOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly injectClaude?: boolean;
  readonly read?: ReadText;
  /** Skip running `--version` (fast paths, tests). */
  readonly versions?: boolean;
}

/** An agent's settings file, bounded like our own (a huge or special file reads as absent). */
const readTextOrNull: ReadText = (path) => {
  try {
    return readSettingsFile(path);
  } catch {
    return null;
  }
};

/** One report per catalogued agent, versions fetched in parallel. */
export async function detectAgents(
  catalog: readonly CatalogAgent[],
  options: DetectOptions,
): Promise<AgentReport[]> {
  const home = options.env.HOME ?? options.env.USERPROFILE ?? "/";
  const path = options.env.PATH ?? "";
  const read = options.read ?? readTextOrNull;
  return await Promise.all(catalog.map(async (agent): Promise<AgentReport> => {
    let found: string | null = null;
    for (const p of agent.processes) {
      found = which(p, path);
      if (found) break;
    }
    const version = found && options.versions !== false ? await versionOf(found) : null;
    const dirs = AGENT_DIRS[agent.id];
    const status = hookStatus(agent.id, {
      home,
      os: Deno.build.os,
      injectClaude: options.injectClaude ?? false,
      read,
    });
    return {
      id: agent.id,
      name: agent.name,
      installed: found !== null,
      version,
      managedDir: dirs ? `${home}/${dirs.managed}` : null,
      readDirs: dirs ? dirs.read.map((d) => `${home}/${d}`) : [],
      source: agent.builtin ? "builtin" : "user",
      hooks: status.state,
      path: found,
      hookStatus: status,
    };
  }));
}

/** The wire form (drops the host-only fields). */
export function toAgentEntry(report: AgentReport): AgentEntry {
  const { path: _path, hookStatus: _status, ...entry } = report;
  return entry;
}
