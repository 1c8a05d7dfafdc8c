/**
 * Screen rules (docs/manifests.md): evaluate a compiled manifest on a view of the
 * emulated screen. First matching rule wins; no match is `idle` with rule id
 * `fallback`, never `blocked`. Only the rows a rule's region needs are read.
 * Pure.
 */

import type { AgentStateName, BlockedKind } from "../model/agent.ts";
import type { ScreenView } from "../model/snapshot.ts";
import type { CompiledRule, Manifest, Region } from "./manifest.ts";

export interface RuleResult {
  readonly state: AgentStateName;
  readonly kind: BlockedKind | null;
  /** The rule that matched, or `fallback`. */
  readonly ruleId: string;
  readonly visibleBlocker: boolean;
}

export const FALLBACK: RuleResult = {
  state: "idle",
  kind: null,
  ruleId: "fallback",
  visibleBlocker: false,
};

/**
 * Region texts of one screen, read lazily and cached for one evaluation.
 * Bottom regions share one joined text: the last k non-empty rows are a
 * suffix of it (a cheap slice), so rows are read and joined once.
 */
export class RegionReader {
  #screen: string | null = null;
  /** Non-empty rows found so far, bottom first. */
  #rows: string[] = [];
  #scanned = 0; // rows scanned from the bottom
  /** #rows joined top to bottom, and where the k-th row from the bottom starts in it. */
  #joined = "";
  #starts: number[] = [];
  #joinedCount = 0;

  constructor(readonly view: ScreenView) {}

  text(region: Region): string {
    switch (region.type) {
      case "title":
        return this.view.title;
      case "screen":
        return this.#screen ??= this.#all();
      case "bottom":
        return this.#bottomOf(region.count);
    }
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
      const line = this.view.line(rows - 1 - this.#scanned);
      this.#scanned++;
      if (line.trim() !== "") this.#rows.push(line);
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
    if (ruleMatches(rule, reader.text(rule.region))) {
      return {
        state: rule.state,
        kind: rule.kind,
        ruleId: rule.id,
        visibleBlocker: rule.visibleBlocker,
      };
    }
  }
  return FALLBACK;
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
