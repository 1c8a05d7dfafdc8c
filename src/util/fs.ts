/** Small synchronous file-system questions whose answer for a bad path is "no". */

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
