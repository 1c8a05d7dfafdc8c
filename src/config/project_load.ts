/** Finds and reads the project file (the runtime half of project.ts). */

import { ConfigError, UserError } from "../errors.ts";
import { parseProject, type Project, PROJECT_FILE, resolvePath } from "./project.ts";

export interface ProjectOptions {
  /** Where to look for `lazyshell.yml`, and what `--project` is relative to. */
  readonly cwd: string;
  /** `--project FILE`: must exist. */
  readonly file?: string | undefined;
}

/**
 * `--project FILE`, else `lazyshell.yml` in the cwd, else null (no project).
 * Throws ConfigError (file:line: reason) for an invalid file, UserError for
 * a `--project` file that does not exist.
 */
export function loadProject(options: ProjectOptions): Project | null {
  return readProject(options)?.project ?? null;
}

/** loadProject, with the file's text (what trust is given to: config/trust.ts). */
export function readProject(options: ProjectOptions): { project: Project; text: string } | null {
  const file = resolvePath(options.cwd, options.file ?? PROJECT_FILE);
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      if (options.file === undefined) return null;
      throw new UserError(`Project file not found: ${file}`);
    }
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
