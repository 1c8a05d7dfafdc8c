/**
 * The Changes tab's view (docs/changes.md), pure: a header (branch, base,
 * commits), the changed files with the selected one highlighted, a rule,
 * the coloured diff from the scroll position, and one line of keys or
 * messages. SGR only, as the protocol allows (docs/plugin-protocol.md §5).
 */

import type { ChangedFile, Changes } from "../../src/git/changes.ts";
import { STATUS_LETTER } from "../../src/git/parse.ts";
import { cell, style } from "../_sdk.ts";

export interface ViewState {
  readonly width: number;
  readonly height: number;
  /** `session-2 (fix)`, or null when no session is selected. */
  readonly session: string | null;
  readonly changes: Changes | null;
  readonly error: string | null;
  readonly loading: boolean;
  readonly fileIndex: number;
  readonly scroll: number;
  /** A message or question for the last line (`{text, tone}`), or null for the keys. */
  readonly note: { readonly text: string; readonly tone: "info" | "error" | "ask" } | null;
}

export const KEYS =
  "j/k file  J/K/space scroll  e edit  y copy branch  D remove worktree  r refresh";

/** The rows the file list takes for `count` files in a tab `height` high. */
export function listRows(count: number, height: number): number {
  return Math.min(count, Math.max(3, Math.floor((height - 3) / 3)));
}

/** The rows left for the diff. */
export function diffRows(state: Pick<ViewState, "changes" | "height">): number {
  const files = state.changes?.files.length ?? 0;
  return Math.max(1, state.height - 3 - listRows(files, state.height));
}

export function renderView(state: ViewState): string {
  const { width, height } = state;
  const lines: string[] = [];
  const changes = state.changes;
  const busy = state.loading ? style.dim(" …") : "";
  if (state.session === null) {
    lines.push(style.dim("No session selected: select one in the Sessions tab"));
  } else if (state.error !== null) {
    lines.push(`${style.bold(state.session)}${busy}`, style.red(state.error));
  } else if (changes === null) {
    lines.push(`${style.bold(state.session)}${style.dim(" reading git…")}`);
  } else {
    lines.push(header(state.session, changes) + busy);
    lines.push(...fileList(changes.files, state.fileIndex, width, height));
    lines.push(style.dim("─".repeat(width)));
    const rows = diffRows(state);
    const diff = changes.diff.split("\n");
    if (changes.files.length === 0) lines.push(style.dim("No changes since the branch point"));
    for (const line of diff.slice(state.scroll, state.scroll + rows)) lines.push(colour(line));
    if (changes.truncated && state.scroll + rows >= diff.length) {
      lines.push(style.yellow(`(diff cut: git -C ${changes.root} diff shows all of it)`));
    }
  }
  while (lines.length < height - 1) lines.push("");
  lines.length = Math.max(0, height - 1);
  lines.push(footer(state));
  return lines.join("\n");
}

function header(session: string, c: Changes): string {
  const branch = c.branch ? style.bold(c.branch) : style.yellow("detached HEAD");
  const base = c.base.commit === null
    ? `uncommitted changes only (${c.base.reason})`
    : `since ${c.base.ref} at ${c.base.commit.slice(0, 7)}, ${c.commits.length} commit` +
      (c.commits.length === 1 ? "" : "s");
  const kind = c.isMain ? "main checkout" : "worktree";
  return `${style.dim(session)} ${branch} ${style.dim(`${kind} ${c.root} ·`)} ${base}`;
}

function fileList(files: readonly ChangedFile[], index: number, width: number, height: number) {
  const rows = listRows(files.length, height);
  const first = Math.max(0, Math.min(index - Math.floor(rows / 2), files.length - rows));
  return files.slice(first, first + rows).map((f, i) => {
    const where = [
      f.committed && "committed",
      f.staged && "staged",
      f.unstaged && "unstaged",
      f.untracked && "untracked",
    ].filter(Boolean).join(", ");
    const counts = f.binary ? "bin" : `+${f.added} -${f.removed}`;
    const name = f.oldPath ? `${f.oldPath} → ${f.path}` : f.path;
    const text = ` ${STATUS_LETTER[f.status]} ${cell(name, Math.max(10, width - 34))}${
      cell(counts, 12)
    }${where}`;
    return first + i === index ? style.inverse(cell(text, width)) : text;
  });
}

function colour(raw: string): string {
  // A changed file's own escape sequences would style the tab: show ESC as a symbol.
  const line = raw.replaceAll("\x1b", "␛");
  if (line.startsWith("diff --git ")) return style.bold(style.yellow(line));
  if (line.startsWith("+++ ") || line.startsWith("--- ")) return style.bold(line);
  if (line.startsWith("@@")) return `\x1b[36m${line}\x1b[0m`;
  if (line.startsWith("+")) return style.green(line);
  if (line.startsWith("-")) return style.red(line);
  return line;
}

function footer(state: ViewState): string {
  const note = state.note;
  if (note === null) return style.dim(KEYS);
  if (note.tone === "error") return style.red(note.text);
  if (note.tone === "ask") return style.yellow(note.text);
  return note.text;
}
