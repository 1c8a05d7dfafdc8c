/**
 * Screen rules (docs/manifests.md): evaluate a compiled manifest on a view of the
 * emulated screen. First matching rule wins; no match is `idle` with rule id
 * `fallback`, never `blocked`. Only the rows a rule's region needs are read,
 * and cell colours only for the matches a colour condition tests, once the
 * rule's text patterns held. Pure.
 */

import type { AgentStateName, StateKind } from "../model/agent.ts";
import type { ScreenView } from "../model/snapshot.ts";
import type { Manifest } from "./manifest.ts";
import type { CellCondition, CompiledRule, Region } from "./rule_manifest.ts";
import type { LinearRegex } from "./regex.ts";

export interface RuleResult {
  readonly state: AgentStateName;
  readonly kind: StateKind | null;
  /** The rule that matched, or `fallback`. */
  readonly ruleId: string;
  readonly visibleBlocker: boolean;
  /** What the screen says about it (a rule's `msg` group: an error's message), or null. */
  readonly msg: string | null;
  /** The reset time as the screen writes it (a rule's `resets`: a usage limit), or null. */
  readonly resets?: string | null;
  /** That time as an instant (epoch ms), once read on the detector's clock and zone. */
  readonly resetsAt?: number | null;
}

export const FALLBACK: RuleResult = {
  state: "idle",
  kind: null,
  ruleId: "fallback",
  visibleBlocker: false,
  msg: null,
};

/** Longest message a rule reports (it ends up in a notification). */
export const MAX_RULE_MSG = 300;

/**
 * Region texts of one screen, read lazily and cached for one evaluation.
 * Bottom regions share one joined text: the last k non-empty rows are a
 * suffix of it (a cheap slice), so rows are read and joined once.
 */
export class RegionReader {
  #screen: string | null = null;
  /** Non-empty rows found so far, bottom first, and their row numbers. */
  #rows: string[] = [];
  #ys: number[] = [];
  #scanned = 0; // rows scanned from the bottom
  /** #rows joined top to bottom, and where the k-th row from the bottom starts in it. */
  #joined = "";
  #starts: number[] = [];
  #joinedCount = 0;
  /** Non-empty rows from the top (rarely needed: read on demand, uncached joins). */
  #top: { y: number; text: string }[] = [];
  #topScanned = 0;

  constructor(readonly view: ScreenView) {}

  text(region: Region): string {
    switch (region.type) {
      case "title":
        return this.view.title;
      case "screen":
        return this.#screen ??= this.#all();
      case "bottom":
        return this.#bottomOf(region.count);
      case "top":
        return this.#topOf(region.count).map((r) => r.text).join("\n");
    }
  }

  /** The rows of a region, top to bottom, with their row numbers (for colour conditions). */
  rows(region: Region): { readonly y: number; readonly text: string }[] {
    const out: { y: number; text: string }[] = [];
    if (region.type === "screen") {
      const lines = (this.#screen ??= this.#all()).split("\n");
      lines.forEach((text, y) => out.push({ y, text }));
    } else if (region.type === "bottom") {
      this.#bottomOf(region.count);
      const k = Math.min(region.count, this.#rows.length);
      for (let i = k - 1; i >= 0; i--) out.push({ y: this.#ys[i]!, text: this.#rows[i]! });
    } else if (region.type === "top") {
      out.push(...this.#topOf(region.count));
    }
    return out;
  }

  /** The first `count` non-empty rows, top to bottom. */
  #topOf(count: number): { y: number; text: string }[] {
    const rows = this.view.rows;
    while (this.#top.length < count && this.#topScanned < rows) {
      const y = this.#topScanned++;
      const text = this.view.line(y);
      if (text.trim() !== "") this.#top.push({ y, text });
    }
    return this.#top.slice(0, count);
  }

  #all(): string {
    const rows: string[] = [];
    for (let y = 0; y < this.view.rows; y++) rows.push(this.view.line(y));
    return rows.join("\n");
  }

  /** The last `count` non-empty rows, top to bottom, joined with `\n`. */
  #bottomOf(count: number): string {
    const rows = this.view.rows;
    while (this.#rows.length < count && this.#scanned < rows) {
      const y = rows - 1 - this.#scanned;
      const line = this.view.line(y);
      this.#scanned++;
      if (line.trim() !== "") {
        this.#rows.push(line);
        this.#ys.push(y);
      }
    }
    if (this.#joinedCount !== this.#rows.length) this.#join();
    const k = Math.min(count, this.#rows.length);
    return k === 0 ? "" : this.#joined.slice(this.#starts[k - 1]);
  }

  #join(): void {
    const n = this.#rows.length;
    const parts = new Array<string>(n);
    for (let i = 0; i < n; i++) parts[i] = this.#rows[n - 1 - i]!;
    this.#joined = parts.join("\n");
    this.#starts = new Array<number>(n);
    let at = this.#joined.length;
    for (let k = 0; k < n; k++) {
      at -= this.#rows[k]!.length;
      this.#starts[k] = at;
      at -= 1; // the \n before it
    }
    this.#joinedCount = n;
  }
}

export function ruleMatches(rule: CompiledRule, text: string): boolean {
  for (const re of rule.not) if (re.test(text)) return false;
  for (const re of rule.all) if (!re.test(text)) return false;
  if (rule.any.length === 0) return true;
  for (const re of rule.any) if (re.test(text)) return true;
  return false;
}

/** The first rule of `manifest` that matches `view`, else FALLBACK. */
export function evaluate(manifest: Manifest, view: ScreenView): RuleResult {
  return evaluateRules(manifest.rules, new RegionReader(view));
}

export function evaluateRules(rules: readonly CompiledRule[], reader: RegionReader): RuleResult {
  for (const rule of rules) {
    const text = reader.text(rule.region);
    if (!ruleMatches(rule, text)) continue;
    let msg: string | null = null;
    if (rule.cells.length > 0) {
      const held = cellsHold(rule.cells, reader, rule.region);
      if (held === null) continue;
      msg = messageOf(rule.msg, held); // the coloured row says it first
    }
    msg ??= messageOf(rule.msg, text);
    const result: RuleResult = {
      state: rule.state,
      kind: kindOf(rule, msg ?? text),
      ruleId: rule.id,
      visibleBlocker: rule.visibleBlocker,
      msg,
    };
    return rule.resets.length > 0 ? { ...result, resets: resetsOf(rule.resets, text) } : result;
  }
  return FALLBACK;
}

/**
 * Whether every colour condition holds in some row of the region: null when
 * one does not, else the first condition's row from where it held (where
 * the message is read first).
 */
function cellsHold(
  cells: readonly CellCondition[],
  reader: RegionReader,
  region: Region,
): string | null {
  const fg = reader.view.fg?.bind(reader.view);
  if (!fg) return null; // a view without colours: no colour condition can hold
  const rows = reader.rows(region);
  let first: string | null = null;
  for (const cell of cells) {
    let held: string | null = null;
    for (const { y, text } of rows) {
      cell.re.lastIndex = 0;
      for (let m = cell.re.exec(text); m !== null; m = cell.re.exec(text)) {
        if (cell.fg(fg(y, m.index))) {
          held = text.slice(m.index);
          break;
        }
        if (m[0] === "") cell.re.lastIndex++;
      }
      if (held !== null) break;
    }
    if (held === null) return null;
    first ??= held;
  }
  return first;
}

/** The first message pattern that matches: its group `msg`, else the whole match. */
function messageOf(patterns: readonly LinearRegex[], text: string): string | null {
  for (const re of patterns) {
    const m = re.exec(text);
    if (m) return clean(m.groups.msg ?? m.text);
  }
  return null;
}

/** The first reset pattern that matches: its group `resets`, else the whole match. */
function resetsOf(patterns: readonly LinearRegex[], text: string): string | null {
  for (const re of patterns) {
    const m = re.exec(text);
    if (m) return clean(m.groups.resets ?? m.text);
  }
  return null;
}

function kindOf(rule: CompiledRule, text: string): StateKind | null {
  for (const { kind, any } of rule.kinds) if (any.some((re) => re.test(text))) return kind;
  return rule.kind;
}

/** One line, blanks collapsed, clipped; null when empty. */
function clean(text: string | undefined): string | null {
  const line = text?.replace(/\s+/g, " ").trim() ?? "";
  if (line === "") return null;
  return line.length > MAX_RULE_MSG ? `${line.slice(0, MAX_RULE_MSG - 1)}…` : line;
}

/**
 * Which manifest's identity hints (title, then screen patterns) name the
 * agent on this screen, for replays with no process table (`lazyshell detect`).
 */
export function identifyByHints(manifests: readonly Manifest[], view: ScreenView): string | null {
  const reader = new RegionReader(view);
  for (const m of manifests) {
    if (m.identity.title.some((re) => re.test(view.title))) return m.id;
  }
  for (const m of manifests) {
    if (m.identity.screen.length === 0) continue;
    const text = reader.text({ type: "screen" });
    if (m.identity.screen.some((re) => re.test(text))) return m.id;
  }
  return null;
}

/** Screen evidence for the arbiter: null when there is no manifest with rules. */
export function classify(manifest: Manifest | null, view: ScreenView): RuleResult | null {
  return manifest && manifest.rules.length > 0 ? evaluate(manifest, view) : null;
}
