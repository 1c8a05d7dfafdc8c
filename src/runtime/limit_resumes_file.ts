/**
 * Pending resumes across server restarts (docs/limits.md, "Across restarts"):
 * `$XDG_STATE_HOME/lazyshell/limit-resumes-<server>.json`, keyed by session
 * name (a restored session keeps its name), written atomically whenever a
 * resume's state changes. At start the file is read; a session of that name
 * running that agent (as `lazyshell restore` brings it back) takes its pending
 * resume, which then waits for the agent to be back at its prompt after the
 * reset before typing — once.
 */

import type { RuntimeChange, RuntimeState } from "../model/runtime.ts";
import type { SessionView } from "../model/session.ts";
import { type Env, stateDir } from "../config/paths.ts";
import type { ResumeRunner } from "../limits/resume_runner.ts";

/** `$XDG_STATE_HOME/lazyshell/limit-resumes-<server name>.json`. */
export function pendingFile(env: Env, server: string): string {
  return `${stateDir(env)}/limit-resumes-${server}.json`;
}

interface Saved {
  readonly agent: string | null;
  readonly state: unknown;
}

/** The file's entries, or none when it is missing or not one (a one-line warning). */
export function readPending(file: string, log: (line: string) => void): Map<string, Saved> {
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch {
    return new Map();
  }
  try {
    const v = JSON.parse(text) as { version?: unknown; sessions?: unknown };
    if (v.version !== 1 || typeof v.sessions !== "object" || v.sessions === null) {
      throw new Error("not a version 1 file");
    }
    const out = new Map<string, Saved>();
    for (const [name, s] of Object.entries(v.sessions as Record<string, unknown>)) {
      const o = s as { agent?: unknown; state?: unknown } | null;
      if (!o || typeof o !== "object") continue;
      out.set(name, { agent: typeof o.agent === "string" ? o.agent : null, state: o.state });
    }
    return out;
  } catch (error) {
    log(`${file}: pending resumes not read: ${(error as Error).message}`);
    return new Map();
  }
}

/** Writes the file atomically (a temporary file renamed over it). */
export function writePending(file: string, sessions: Record<string, Saved>): void {
  Deno.mkdirSync(file.slice(0, file.lastIndexOf("/")), { recursive: true, mode: 0o700 });
  const temp = `${file}.tmp-${Deno.pid}`;
  Deno.writeTextFileSync(temp, JSON.stringify({ version: 1, sessions }) + "\n", { mode: 0o600 });
  Deno.renameSync(temp, file);
}

export interface PendingHost {
  readonly resumes: ResumeRunner;
  /** The sessions now: one already named and identified is handed its resume at once. */
  readonly state: Pick<RuntimeState, "sessions">;
  subscribe(listener: (change: RuntimeChange) => void): Disposable;
}

/** Keeps the file, and hands saved resumes to the sessions restored under their names. */
export function persistResumes(
  runtime: PendingHost,
  file: string,
  log: (line: string) => void = () => {},
): Disposable {
  const saved = readPending(file, log);
  let last = "";
  const write = () => {
    const now = runtime.resumes.pendingByName();
    // Saved entries not restored yet stay in the file.
    for (const [name, s] of saved) now[name] ??= s;
    const text = JSON.stringify(now);
    if (text === last) return;
    last = text;
    try {
      writePending(file, now);
    } catch (error) {
      log(`${file}: pending resumes not written: ${(error as Error).message}`);
    }
  };
  runtime.resumes.onChange = write;
  if (saved.size > 0 || Object.keys(runtime.resumes.pendingByName()).length > 0) write();
  const handOver = (s: SessionView) => {
    const entry = saved.get(s.name);
    if (!entry || s.agent === null || s.status === "exited") return;
    saved.delete(s.name);
    if (entry.agent === s.agent) {
      runtime.resumes.restore(s.id, { agent: s.agent, name: s.name }, entry.state);
    }
    write();
  };
  const sub = runtime.subscribe((change) => {
    if (saved.size === 0 || (change.type !== "added" && change.type !== "updated")) return;
    handOver(change.session);
  });
  // A session of that name already identified before this started gets no change to hear:
  // the restored resume would never be typed (the e2e test lost 2 runs of 4 so).
  for (const s of runtime.state.sessions) handOver(s);
  return {
    [Symbol.dispose]: () => {
      sub[Symbol.dispose]();
      runtime.resumes.onChange = null;
    },
  };
}
