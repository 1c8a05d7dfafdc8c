/**
 * Where the project file is: `lazyshell.yml` in the current folder or the
 * nearest one above it. No YAML, no schema: the client looks with this
 * before it starts a server, at about a bare Deno start-up.
 */

import { exists } from "../util/fs.ts";
import { PROJECT_FILE, resolvePath } from "./project_path.ts";

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
