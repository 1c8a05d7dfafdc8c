/**
 * What an attaching client says when a server already runs and a project
 * file was named (`--project FILE`) or found (the nearest `lazyshell.yml`):
 * a project's sessions start with a new server only (README: Project file),
 * so this attach did not start them. One line, with the command that does:
 * a server of its own for the project (`-L`), this one untouched. Nothing
 * when the running server started with that very project file (its
 * instance directory says which, src/ipc/runtime_dir.ts serverProject).
 */

import { findProjectFile } from "../config/project_find.ts";
import { resolvePath } from "../config/project_path.ts";
import { currentUid, runtimeRoot } from "../config/paths.ts";
import { serverProject } from "../ipc/runtime_dir.ts";
import type { ClientOptions } from "./client.ts";

/** `lazyshell` (attach) found a server running: the line on stderr, if there is one. */
export function sayProjectNotStarted(
  options: ClientOptions,
  env: Readonly<Record<string, string | undefined>>,
  server: string,
): void {
  if (options.mode !== "attach") return;
  const line = projectNotice({
    project: options.project,
    cwd: Deno.cwd(),
    home: env.HOME ?? null,
    server,
    running: serverProject(runtimeRoot(env, currentUid()), server),
  });
  if (line !== null) console.error(line);
}

export interface ProjectNoticeInput {
  /** `--project FILE`, as typed. */
  readonly project?: string | undefined;
  readonly cwd: string;
  readonly home: string | null;
  /** The running server's name (`-L`). */
  readonly server: string;
  /** The project file the running server started with, if any. */
  readonly running?: string | null;
}

/** The line, or null when there is no project file to speak of. */
export function projectNotice(o: ProjectNoticeInput): string | null {
  const file = o.project !== undefined
    ? resolvePath(o.cwd, o.project)
    : findProjectFile(o.cwd, o.home);
  if (file === null || file === o.running) return null;
  const name = projectServerName(file, o.server);
  return `lazyshell: server ${o.server} was already running, so this attach did not start ` +
    `${file} (a project starts with a new server): start it in a server of its own with ` +
    `\`lazyshell -L ${name} --project ${quoted(file)}\``;
}

/** The project folder's name as a server name (letters, digits, . _ -, at most 32). */
export function projectServerName(file: string, running: string): string {
  const dir = file.slice(0, file.lastIndexOf("/"));
  const base = dir.slice(dir.lastIndexOf("/") + 1).replace(/[^A-Za-z0-9._-]/g, "-")
    .slice(0, 32);
  const name = /^[A-Za-z0-9]/.test(base) ? base : "project";
  return name === running ? `${name.slice(0, 24)}-project` : name;
}

function quoted(path: string): string {
  return /^[A-Za-z0-9_./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}
