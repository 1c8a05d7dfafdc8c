/** Finds and reads the project file (the runtime half of project.ts). */

import { ConfigError, UserError } from "../errors.ts";
import { findProjectFile } from "./project_find.ts";
import { parseProject, type Project, resolvePath } from "./project.ts";
import { FileRefused, readSettingsFile } from "./read_file.ts";

export { findProjectFile };

export interface ProjectOptions {
  /** Where to start looking for `lazyshell.yml`, and what `--project` is relative to. */
  readonly cwd: string;
  /** `--project FILE`: must exist. */
  readonly file?: string | undefined;
  /** Where the upward search stops at the latest (default: $HOME). */
  readonly home?: string | undefined;
}

/**
 * `--project FILE`, else the nearest `lazyshell.yml` (findProjectFile), else
 * null (no project). Throws ConfigError (file:line: reason) for an invalid
 * file, UserError for a `--project` file that does not exist.
 */
export function loadProject(options: ProjectOptions): Project | null {
  return readProject(options)?.project ?? null;
}

/** loadProject, with the file's text (what trust is given to: config/trust.ts). */
export function readProject(options: ProjectOptions): { project: Project; text: string } | null {
  const file = options.file === undefined
    ? findProjectFile(options.cwd, options.home ?? Deno.env.get("HOME") ?? null)
    : resolvePath(options.cwd, options.file);
  if (file === null) return null;
  let text: string;
  try {
    text = readSettingsFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      if (options.file === undefined) return null;
      throw new UserError(`Project file not found: ${file}`);
    }
    if (error instanceof FileRefused) throw new ConfigError(file, null, error.message);
    throw new ConfigError(file, null, `Cannot read: ${(error as Error).message}`);
  }
  const project = parseProject(text, file, {
    baseDir: file.slice(0, file.lastIndexOf("/")) || "/",
    isDirectory,
  });
  return { project, text };
}

function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}
