/**
 * The file where earlier servers kept pending resumes at usage limits,
 * `$XDG_STATE_HOME/lazyshell/limit-resumes-<server>.json`, keyed by session
 * name with the agent. Pending resumes are now in the state file, next to
 * their session (docs/limits.md, "Across restarts"): a server reads this file
 * once into the saved sessions of the same name and agent (restore.ts), then
 * removes it.
 */

import { type Env, stateDir } from "../config/paths.ts";

/** `$XDG_STATE_HOME/lazyshell/limit-resumes-<server name>.json`. */
export function legacyResumesFile(env: Env, server: string): string {
  return `${stateDir(env)}/limit-resumes-${server}.json`;
}

export interface LegacyResume {
  readonly agent: string | null;
  readonly state: Record<string, unknown>;
}

/**
 * The file's entries by session name; null when there is no file; none when it is
 * not one (said in one line).
 */
export function readLegacyResumes(
  file: string,
  log: (line: string) => void = () => {},
): Map<string, LegacyResume> | null {
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch {
    return null;
  }
  const out = new Map<string, LegacyResume>();
  try {
    const v = JSON.parse(text) as { version?: unknown; sessions?: unknown };
    if (v.version !== 1 || typeof v.sessions !== "object" || v.sessions === null) {
      throw new Error("not a version 1 file");
    }
    for (const [name, s] of Object.entries(v.sessions as Record<string, unknown>)) {
      const o = s as { agent?: unknown; state?: unknown } | null;
      if (!o || typeof o !== "object" || typeof o.state !== "object" || o.state === null) continue;
      const agent = typeof o.agent === "string" ? o.agent : null;
      out.set(name, { agent, state: o.state as Record<string, unknown> });
    }
  } catch (error) {
    log(`${file}: pending resumes not read: ${(error as Error).message}`);
  }
  return out;
}
