/**
 * Starts a project file's sessions (README: Project file) with their watchers.
 * The file was fully validated by loadProject; a session that still fails
 * to start (a command not on PATH, a name already taken) stops the whole
 * launch: the sessions started before it are removed, and the error names
 * the file and the entry's line. Both the TUI and `serve` call this.
 * Watchers are declared by session name, so a restarted session keeps them.
 */

import { ConfigError, messageOf, UserError } from "../errors.ts";
import type { Project } from "../config/project.ts";
import { loadProject, type ProjectOptions } from "../config/project_load.ts";
import type { Session } from "../session/session.ts";
import type { Runtime } from "./runtime.ts";

export function startProject(runtime: Runtime, project: Project): Session[] {
  const started: Session[] = [];
  for (const spec of project.sessions) {
    let session: Session;
    // Declared first: the session gets its watchers from its first byte, and again on restart.
    runtime.declareWatches(spec.name, spec.watch);
    try {
      session = runtime.createSession({
        name: spec.name,
        ...(spec.command ? { command: spec.command } : {}),
        cwd: spec.cwd,
        group: spec.group,
        env: spec.env,
        origin: project.file,
      });
    } catch (error) {
      for (const s of started) runtime.store.remove(s.id);
      for (const s of project.sessions) runtime.declareWatches(s.name, []);
      if (!(error instanceof UserError)) throw error;
      throw new ConfigError(project.file, spec.line, `${spec.name}: ${messageOf(error)}`);
    }
    started.push(session);
  }
  return started;
}

/** `--project FILE` or `./lazyshell.yml` (if any): load, validate, start. */
export function launchProject(runtime: Runtime, options: ProjectOptions): Session[] {
  const project = loadProject(options);
  return project ? startProject(runtime, project) : [];
}
