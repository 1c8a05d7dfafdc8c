/** The project file's name and path arithmetic, pure: shared by the schema and the finder. */

export const PROJECT_FILE = "lazyshell.yml";

/** `path` made absolute against `base`, `.` and `..` resolved. */
export function resolvePath(base: string, path: string): string {
  const joined = path.startsWith("/") ? path : `${base.replace(/\/+$/, "")}/${path}`;
  const parts: string[] = [];
  for (const part of joined.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}
