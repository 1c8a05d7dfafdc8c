/**
 * Prompt reading (docs/manifests.md "Prompts"): what a blocked agent asks
 * and how to answer it, read from the screen by a manifest's `prompts`
 * readers — the question, the subject (the command, the file), the options
 * in screen order with the keys that choose each, and the cancel key. Pure;
 * data-driven (no agent names here). A reading that is not complete (no
 * option, an option with no known key, numbers that do not run 1..n) is
 * null: nothing may be typed on an uncertain reading.
 */

import type { AgentStatus } from "../model/agent.ts";
import { KEY_NAMES, type Prompt } from "../model/prompt.ts";
import type { ScreenView } from "../model/snapshot.ts";
import type { LinearRegex } from "./regex.ts";
import { stringWidth } from "../util/width.ts";

export type { Prompt, PromptOption } from "../model/prompt.ts";
export { KEY_NAMES, samePrompt } from "../model/prompt.ts";
import type { Region } from "./rule_manifest.ts";

export interface PromptReader {
  readonly id: string;
  readonly region: Exclude<Region, { type: "title" }>;
  readonly any: readonly LinearRegex[];
  readonly all: readonly LinearRegex[];
  readonly not: readonly LinearRegex[];
  readonly question: readonly LinearRegex[];
  readonly subject: readonly LinearRegex[];
  /**
   * One option per row that one of these matches, tried in order (groups
   * label, number, key, selected); empty when `row` is used…
   */
  readonly option: readonly LinearRegex[];
  /** …or one row holding every option (group items), cut by `split`. */
  readonly row: LinearRegex | null;
  readonly split: LinearRegex | null;
  readonly selection: "marker" | "highlight";
  readonly choose: "number" | "arrows";
  readonly cancel: readonly LinearRegex[];
  readonly approve: LinearRegex | null;
  readonly deny: LinearRegex | null;
}

/** Where a manifest's input box is (`ctl send` receipts). */
export interface InputReader {
  readonly region: PromptReader["region"];
  /** The last match (flag g) is the input box; group `text` is what it holds. */
  readonly pattern: LinearRegex;
  /** Any of these in the region: the text there is submitted, not in a box (no box on screen). */
  readonly not: readonly LinearRegex[];
}

interface Row {
  readonly y: number;
  readonly text: string;
}

interface Found {
  readonly row: number;
  readonly label: string;
  readonly number: number | null;
  readonly key: string | null;
  readonly marked: boolean;
  /** Where the label starts in its row (for highlight). */
  readonly col: number;
  /** Where the row's own text resumes after a row of options (its background), or -1. */
  readonly after: number;
}

/** The rows of a region, top to bottom (a bottom region skips blank rows, as rules do). */
export function regionRows(view: ScreenView, region: PromptReader["region"]): Row[] {
  return new Rows(view).of(region);
}

/** Rows read once per reading, shared by every reader tried (a bottom N is a suffix of a bottom M). */
class Rows {
  #screen: Row[] | null = null;
  /** Non-empty rows found so far, bottom first. */
  #bottom: Row[] = [];
  #scanned = 0;

  constructor(readonly view: ScreenView) {}

  of(region: PromptReader["region"]): Row[] {
    const view = this.view;
    if (region.type === "screen") {
      if (!this.#screen) {
        this.#screen = [];
        for (let y = 0; y < view.rows; y++) this.#screen.push({ y, text: view.line(y) });
      }
      return this.#screen;
    }
    while (this.#bottom.length < region.count && this.#scanned < view.rows) {
      const y = view.rows - 1 - this.#scanned++;
      const text = view.line(y);
      if (text.trim() !== "") this.#bottom.push({ y, text });
    }
    return this.#bottom.slice(0, region.count).reverse();
  }
}

/**
 * The prompt on screen, read by the first reader whose patterns match its
 * region; null when none matches or its reading is incomplete. `declared`
 * (an OSC 7501 `msg`) is the subject when present.
 */
export function readPrompt(
  readers: readonly PromptReader[],
  view: ScreenView,
  declared: string | null = null,
): Prompt | null {
  const cache = new Rows(view);
  for (const reader of readers) {
    const rows = cache.of(reader.region);
    const text = rows.map((r) => r.text).join("\n");
    if (!applies(reader, text)) continue;
    return readWith(reader, rows, view, declared);
  }
  return null;
}

/**
 * The prompt of a session in `status`: read only while it is blocked; an
 * OSC 7501 `msg` is its subject.
 */
export function promptFor(
  readers: readonly PromptReader[],
  status: AgentStatus | null,
  view: ScreenView,
): Prompt | null {
  if (status?.state !== "blocked" || readers.length === 0) return null;
  return readPrompt(readers, view, status.source === "declared" ? status.msg : null);
}

function applies(r: PromptReader, text: string): boolean {
  if (r.not.some((re) => re.test(text))) return false;
  if (!r.all.every((re) => re.test(text))) return false;
  return r.any.length === 0 || r.any.some((re) => re.test(text));
}

function readWith(
  r: PromptReader,
  rows: readonly Row[],
  view: ScreenView,
  declared: string | null,
): Prompt | null {
  const found = findOptions(r, rows, view.cols);
  if (found.length === 0) return null;
  const last = found[found.length - 1]!.row;
  let question: { row: number; text: string } | null = null;
  for (const re of r.question) {
    question = findQuestion(re, rows, found, last);
    if (question) break;
  }
  if (!question) return null;
  const q = question.row;
  const options = r.row
    ? found.filter((f) => f.row === last)
    : found.filter((f) => f.row > q && f.row <= last);
  if (options.length === 0 || !numbered(options)) return null;
  const selected = r.selection === "marker"
    ? options.findIndex((o) => o.marked)
    : highlighted(options, rows, view);
  const keys = options.map((o, i) => keysFor(r, o, i, selected));
  if (keys.some((k) => k === null)) return null;
  const above = rows.slice(0, options[0]!.row).map((row) => row.text).join("\n");
  const region = rows.map((row) => row.text).join("\n");
  const index = (re: LinearRegex | null) => {
    if (!re) return null;
    const i = options.findIndex((o) => re.test(o.label));
    return i === -1 ? null : i + 1;
  };
  return {
    question: question.text,
    subject: declared ?? lastMatch(r.subject, above),
    options: options.map((o, i) => ({ label: o.label, keys: keys[i]! })),
    cancel: r.cancel.some((re) => re.test(region)) ? ["Esc"] : null,
    approve: index(r.approve),
    deny: index(r.deny),
  };
}

function findOptions(r: PromptReader, rows: readonly Row[], cols: number): Found[] {
  const out: Found[] = [];
  rows.forEach((row, i) => {
    if (r.row === null) {
      let m: ReturnType<LinearRegex["exec"]> = null;
      for (const re of r.option) if ((m = re.exec(row.text))) break;
      const label = m?.groups.label?.trim();
      if (!m || !label) return;
      const g = m.groups;
      out.push({
        row: i,
        label,
        number: g.number === undefined ? null : Number(g.number),
        key: g.key ?? null,
        marked: g.selected !== undefined && g.selected !== "",
        col: m.starts.label ?? 0,
        after: -1,
      });
      return;
    }
    const m = r.row!.exec(row.text);
    const items = m?.groups.items;
    const at = m?.starts.items;
    if (!m || items === undefined || at === undefined) return;
    const rest = row.text.slice(at + items.length);
    const after = rest.trim() === "" ? -1 : at + items.length + rest.search(/\S/);
    for (const [label, col] of cut(items, r.split!)) {
      out.push({ row: i, label, number: null, key: null, marked: false, col: at + col, after });
    }
  });
  return r.row === null ? unwrapped(out, rows, cols) : out;
}

/**
 * Options whose label the terminal wrapped get the rows it continues on: a
 * row that is no option, starts where the label starts, and whose first word
 * would not have fitted after the label's last word (a description under an
 * option starts there too, but under a label with room left after it; a
 * scrollbar or a box's border at the row's end does not count).
 */
function unwrapped(found: readonly Found[], rows: readonly Row[], cols: number): Found[] {
  const optionRows = new Set(found.map((f) => f.row));
  return found.map((f) => {
    let label = f.label;
    let end = -1; // where the text above ends, once needed
    for (let j = f.row + 1; j < rows.length && !optionRows.has(j); j++) {
      const next = rows[j]!.text.trimEnd();
      const text = next.trimStart();
      if (text === "" || next.length - text.length !== f.col) break;
      if (end < 0) end = f.col + stringWidth(f.label);
      if (end + 1 + stringWidth(text.split(/\s/, 1)[0]!) <= cols) break;
      label = `${label} ${text}`;
      end = stringWidth(next);
    }
    return label === f.label ? f : { ...f, label };
  });
}

/** The non-empty pieces of `text` between matches of `split`, with where each starts. */
function cut(text: string, split: LinearRegex): [string, number][] {
  const out: [string, number][] = [];
  let from = 0;
  const push = (end: number) => {
    const piece = text.slice(from, end);
    const lead = piece.length - piece.trimStart().length;
    if (piece.trim() !== "") out.push([piece.trim(), from + lead]);
  };
  for (const m of split.matches(text)) {
    if (m.text === "") continue;
    push(m.index);
    from = m.index + m.text.length;
  }
  push(text.length);
  return out;
}

/**
 * The question row: going up from the last option, the first row the
 * question pattern matches that is not itself an option — passing over
 * one (a description ending in "?") while the numbered options above
 * have not reached 1 yet.
 */
function findQuestion(
  re: LinearRegex,
  rows: readonly Row[],
  found: readonly Found[],
  last: number,
): { row: number; text: string } | null {
  const optionRows = new Set(found.map((f) => f.row));
  let lowest: number | null = null; // smallest option number seen so far
  for (let i = last; i >= 0; i--) {
    if (optionRows.has(i)) {
      for (const f of found) {
        if (f.row === i && f.number !== null) lowest = Math.min(lowest ?? Infinity, f.number);
      }
      continue; // an option row is never the question
    }
    const m = re.exec(rows[i]!.text);
    if (!m) continue;
    if (lowest !== null && lowest > 1) continue;
    const text = (m.groups.text ?? m.text).trim();
    if (text !== "") return { row: i, text };
  }
  return null;
}

/**
 * The numbered options must run 1..n (a scrolled or half-drawn menu is not
 * read); rows without a number between them (a "Submit" row) are passed over.
 */
function numbered(options: readonly Found[]): boolean {
  let n = 0;
  for (const o of options) if (o.number !== null && o.number !== ++n) return false;
  return true;
}

/**
 * The option drawn in a style the others do not share, when every other
 * option shares one; with two options, the one drawn unlike the row's own
 * text after them (the other drawn like it). -1 when that cannot be told.
 */
function highlighted(options: readonly Found[], rows: readonly Row[], view: ScreenView): number {
  if (!view.styles || options.length < 2) return -1;
  const styles = (o: Found) => view.styles!(rows[o.row]!.y);
  const keys = options.map((o) => styles(o)[o.col]);
  if (keys.some((k) => k === undefined)) return -1;
  if (options.length === 2) {
    const o = options[0]!;
    const ground = o.after < 0 ? undefined : styles(o)[o.after];
    if (ground === undefined || keys[0] === keys[1]) return -1;
    return keys[0] === ground ? 1 : keys[1] === ground ? 0 : -1;
  }
  for (let i = 0; i < keys.length; i++) {
    const others = keys.filter((_, j) => j !== i);
    if (others.every((k) => k === others[0]) && others[0] !== keys[i]) return i;
  }
  return -1;
}

function keysFor(r: PromptReader, o: Found, i: number, selected: number): string[] | null {
  if (o.key !== null) {
    const key = keyName(o.key);
    return key === null ? null : [key];
  }
  // An unnumbered row among numbered ones (choose: number) is reached with the arrows.
  if (r.choose === "number" && o.number !== null) return [...String(o.number)];
  if (selected < 0) return null;
  const [back, forth] = r.row ? ["Left", "Right"] : ["Up", "Down"];
  const moves = i - selected;
  return [...Array(Math.abs(moves)).fill(moves < 0 ? back : forth), "Enter"];
}

/** A key hint as shown on screen (`y`, `esc`, `Enter`) → a key name, or null. */
export function keyName(hint: string): string | null {
  const h = hint.trim();
  if ([...h].length === 1) return h;
  const lower = h.toLowerCase();
  if (lower === "esc" || lower === "escape") return "Esc";
  return KEY_NAMES.find((k) => k.toLowerCase() === lower) ?? null;
}

function lastMatch(list: readonly LinearRegex[], text: string): string | null {
  for (const re of list) {
    const last = re.matches(text).at(-1);
    const value = last ? (last.groups.text ?? last.text).trim() : "";
    if (value !== "") return value;
  }
  return null;
}

/**
 * What the input box holds (whitespace collapsed), "" when empty, null when
 * there is no reader or no box on screen (a dialog replaced it).
 */
export function readInput(reader: InputReader | null, view: ScreenView): string | null {
  if (!reader) return null;
  const text = new Rows(view).of(reader.region).map((r) => r.text).join("\n");
  if (reader.not.some((re) => re.test(text))) return null;
  const last = reader.pattern.matches(text).at(-1);
  return last ? (last.groups.text ?? "").replace(/\s+/g, " ").trim() : null;
}
