/** Finds and reads the project file (the runtime half of project.ts). */

import { ConfigError, UserError } from "../errors.ts";
import { exists } from "../util/fs.ts";
import { parseProject, type Project, PROJECT_FILE, resolvePath } from "./project.ts";
import { FileRefused, readSettingsFile } from "./read_file.ts";

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
  return parseProject(text, file, {
    baseDir: file.slice(0, file.lastIndexOf("/")) || "/",
    isDirectory,
  });
}

/**
 * `lazyshell.yml` in `cwd` or the nearest folder above it, like git finds
 * its repository: the search stops after a repository's root (a folder
 * holding `.git`), after `home`, or at `/`, so a project file never
 * applies outside its repository or from above the home folder.
 */
export function findProjectFile(cwd: string, home: string | null): string | null {
  const stop = home === null ? null : resolvePath("/", home);
  let dir = resolvePath("/", cwd);
  for (;;) {
    const file = resolvePath(dir, PROJECT_FILE);
    if (exists(file)) return file;
    if (dir === "/" || dir === stop || exists(`${dir}/.git`)) return null;
    dir = dir.slice(0, dir.lastIndexOf("/")) || "/";
  }
}

function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}
