/**
 * Git's machine output, parsed (docs/changes.md). Pure: the strings come from
 * ./run.ts in production and from recorded outputs in parse_test.ts. Every
 * format here is one git documents as stable for scripts: `status
 * --porcelain=v2 -z`, `diff --name-status -z`,
 * `log -z` with our own format, and the unified diff itself.
 */

/** One entry of `git status --porcelain=v2 -z`. */
export interface StatusEntry {
  readonly path: string;
  /** The old path of a rename or copy. */
  readonly origPath: string | null;
  readonly kind: "changed" | "renamed" | "unmerged" | "untracked" | "ignored";
  /** Index (staged) status letter, `.` when unchanged. */
  readonly index: string;
  /** Work tree (unstaged) status letter, `.` when unchanged. */
  readonly worktree: string;
}

export interface Status {
  /** The branch checked out, or null on a detached HEAD. */
  readonly branch: string | null;
  /** The commit checked out, or null before the first commit. */
  readonly oid: string | null;
  /** The upstream (`origin/main`), or null. */
  readonly upstream: string | null;
  readonly entries: readonly StatusEntry[];
}

/** `git status --porcelain=v2 -z --branch` → Status. */
export function parseStatus(text: string): Status {
  let branch: string | null = null;
  let oid: string | null = null;
  let upstream: string | null = null;
  const entries: StatusEntry[] = [];
  const records = text.split("\0");
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    if (record === "") continue;
    if (record.startsWith("# ")) {
      const [key, ...rest] = record.slice(2).split(" ");
      const value = rest.join(" ");
      if (key === "branch.head") branch = value === "(detached)" ? null : value;
      if (key === "branch.oid") oid = value === "(initial)" ? null : value;
      if (key === "branch.upstream") upstream = value;
      continue;
    }
    const type = record[0];
    if (type === "?" || type === "!") {
      entries.push({
        path: record.slice(2),
        origPath: null,
        kind: type === "?" ? "untracked" : "ignored",
        index: type,
        worktree: type,
      });
      continue;
    }
    // Fields before the path: 1 → 8, 2 → 9, u → 10 (the path may hold spaces).
    const before = type === "1" ? 8 : type === "2" ? 9 : type === "u" ? 10 : -1;
    if (before === -1) continue;
    const fields = splitFields(record, before);
    const xy = fields[1] ?? "..";
    const origPath = type === "2" ? records[++i] ?? null : null;
    entries.push({
      path: fields[before] ?? "",
      origPath,
      kind: type === "1" ? "changed" : type === "2" ? "renamed" : "unmerged",
      index: xy[0] ?? ".",
      worktree: xy[1] ?? ".",
    });
  }
  return { branch, oid, upstream, entries };
}

/** The first `count` space-separated fields, then the rest of the record as one. */
function splitFields(record: string, count: number): string[] {
  const out: string[] = [];
  let at = 0;
  for (let n = 0; n < count; n++) {
    const space = record.indexOf(" ", at);
    if (space === -1) return [...out, record.slice(at)];
    out.push(record.slice(at, space));
    at = space + 1;
  }
  out.push(record.slice(at));
  return out;
}

export type ChangeStatus =
  | "added"
  | "modified"
  | "deleted"
  | "renamed"
  | "copied"
  | "typechange"
  | "unmerged"
  | "untracked";

/** One letter per status, as `git status --short` and `ctl diff` print them (`?` untracked). */
export const STATUS_LETTER: Record<ChangeStatus, string> = {
  added: "A",
  modified: "M",
  deleted: "D",
  renamed: "R",
  copied: "C",
  typechange: "T",
  unmerged: "U",
  untracked: "?",
};

export interface NameStatus {
  readonly path: string;
  readonly oldPath: string | null;
  readonly status: ChangeStatus;
}

const LETTERS: Record<string, ChangeStatus> = {
  A: "added",
  M: "modified",
  D: "deleted",
  R: "renamed",
  C: "copied",
  T: "typechange",
  U: "unmerged",
};

/** `git diff --name-status -z` → entries (R and C carry a score and two paths). */
export function parseNameStatus(text: string): NameStatus[] {
  const fields = text.split("\0");
  const out: NameStatus[] = [];
  for (let i = 0; i < fields.length; i++) {
    const code = fields[i]!;
    if (code === "") continue;
    const status = LETTERS[code[0]!] ?? "modified";
    if (status === "renamed" || status === "copied") {
      const oldPath = fields[++i] ?? "";
      out.push({ path: fields[++i] ?? "", oldPath, status });
    } else {
      out.push({ path: fields[++i] ?? "", oldPath: null, status });
    }
  }
  return out;
}

export interface Commit {
  readonly hash: string;
  readonly subject: string;
}

/** The log format parseLog reads: short hash, unit separator, subject; records end with NUL (-z). */
export const LOG_FORMAT = "--format=%h%x1f%s";

export function parseLog(text: string): Commit[] {
  return text.split("\0").filter((r) => r.trim() !== "").map((record) => {
    const [hash, ...subject] = record.replace(/^\n/, "").split("\x1f");
    return { hash: hash ?? "", subject: subject.join("\x1f") };
  });
}

/** One file's section of a unified diff. */
export interface FileDiff {
  readonly path: string;
  readonly oldPath: string | null;
  readonly added: number;
  readonly removed: number;
  readonly binary: boolean;
  /** Index of its `diff --git` line in the diff's lines. */
  readonly line: number;
}

/**
 * The files of a unified diff (`git diff`, `--no-index`, or untrackedDiff)
 * with their added and removed line counts. Paths come from the `---`/`+++`
 * lines (or rename lines), which git writes unambiguously, not from the
 * `diff --git a/x b/x` header (ambiguous when a path holds " b/").
 */
export function parseUnifiedDiff(text: string): FileDiff[] {
  const lines = text.split("\n");
  const out: FileDiff[] = [];
  let current: { -readonly [K in keyof FileDiff]: FileDiff[K] } | null = null;
  let inHunk = false;
  const headerPath = (header: string) => {
    // `diff --git a/p b/p`: for an unchanged name both halves are equal.
    const rest = header.slice("diff --git ".length);
    const half = (rest.length - 1) / 2;
    const a = rest.slice(0, half);
    const b = rest.slice(half + 1);
    return a.slice(2) === b.slice(2) ? b.slice(2) : rest.replace(/^a\/(.*?) b\/.*$/, "$1");
  };
  lines.forEach((line, index) => {
    if (line.startsWith("diff --git ")) {
      if (current) out.push(current);
      current = {
        path: headerPath(line),
        oldPath: null,
        added: 0,
        removed: 0,
        binary: false,
        line: index,
      };
      inHunk = false;
      return;
    }
    if (!current) return;
    if (!inHunk) {
      if (line.startsWith("rename from ")) current.oldPath = line.slice(12);
      else if (line.startsWith("rename to ")) current.path = line.slice(10);
      else if (line.startsWith("+++ b/")) current.path = unquote(line.slice(6));
      else if (line.startsWith("--- a/") && current.oldPath === null) {
        const old = unquote(line.slice(6));
        if (old !== current.path) current.oldPath = old;
      } else if (line.startsWith("Binary files ")) current.binary = true;
      else if (line.startsWith("@@")) inHunk = true;
      return;
    }
    if (line.startsWith("+")) current.added++;
    else if (line.startsWith("-")) current.removed++;
  });
  if (current) out.push(current);
  return out;
}

/** `+++ b/x\t` may end with a tab when the name has a space (git's marker): drop it. */
function unquote(path: string): string {
  return path.replace(/\t$/, "");
}

/** Git's binary test: a NUL byte in the first 8000 bytes. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8000).includes(0);
}

/**
 * An untracked file as `git diff` shows a new file (what `git add -N` then
 * `git diff` would print), without touching the index.
 */
export function untrackedDiff(path: string, bytes: Uint8Array, mode = "100644"): string {
  const header = `diff --git a/${path} b/${path}\nnew file mode ${mode}\n`;
  if (bytes.length === 0) return header;
  if (looksBinary(bytes)) return `${header}Binary files /dev/null and b/${path} differ\n`;
  const text = new TextDecoder().decode(bytes);
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  const lines = body.split("\n");
  const noNewline = text.endsWith("\n") ? "" : "\\ No newline at end of file\n";
  const count = lines.length === 1 ? "1" : `1,${lines.length}`;
  return `${header}--- /dev/null\n+++ b/${path}\n@@ -0,0 +${count} @@\n` +
    lines.map((l) => `+${l}\n`).join("") + noNewline;
}

/** `git diff --stat`-like summary: one line per file, then the totals. */
export function formatStat(files: readonly FileDiff[], width = 80): string {
  if (files.length === 0) return "";
  const names = files.map((f) => (f.oldPath ? `${f.oldPath} => ${f.path}` : f.path));
  const nameWidth = Math.min(Math.max(...names.map((n) => n.length)), Math.max(20, width - 30));
  const counts = files.map((f) => (f.binary ? "Bin" : String(f.added + f.removed)));
  const countWidth = Math.max(...counts.map((c) => c.length));
  const most = Math.max(1, ...files.map((f) => f.added + f.removed));
  const barRoom = Math.max(10, width - nameWidth - countWidth - 5);
  const lines = files.map((f, i) => {
    const name = names[i]!;
    const shown = name.length > nameWidth ? `...${name.slice(name.length - nameWidth + 3)}` : name;
    const scale = most > barRoom ? barRoom / most : 1;
    const bar = f.binary
      ? ""
      : "+".repeat(Math.ceil(f.added * scale)) + "-".repeat(Math.ceil(f.removed * scale));
    return ` ${shown.padEnd(nameWidth)} | ${counts[i]!.padStart(countWidth)} ${bar}`.trimEnd();
  });
  const added = files.reduce((n, f) => n + f.added, 0);
  const removed = files.reduce((n, f) => n + f.removed, 0);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  lines.push(
    ` ${plural(files.length, "file")} changed, ${plural(added, "insertion")}(+), ` +
      `${plural(removed, "deletion")}(-)`,
  );
  return lines.join("\n");
}
