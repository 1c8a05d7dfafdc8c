/** Small synchronous file-system questions whose answer for a bad path is "no" (or null). */

/** A file's text, or null when it is missing, a directory or unreadable. */
export function readTextOrNull(path: string | URL): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return null;
  }
}

/** Whether anything is at `path` (following symlinks). */
export function exists(path: string | URL): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The first `name` found on PATH (PATHEXT on Windows), or null. */
export function which(name: string, path: string, os = Deno.build.os): string | null {
  if (name.includes("/")) return isExecutable(name) ? name : null;
  const sep = os === "windows" ? ";" : ":";
  const exts = os === "windows" ? ["", ".exe", ".cmd", ".bat"] : [""];
  for (const dir of path.split(sep)) {
    if (dir === "") continue;
    for (const ext of exts) {
      const candidate = `${dir}/${name}${ext}`;
      if (isExecutable(candidate)) return candidate;
    }
  }
  return null;
}

function isExecutable(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile && (Deno.build.os === "windows" || ((info.mode ?? 0) & 0o111) !== 0);
  } catch {
    return false;
  }
}
