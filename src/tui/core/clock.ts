/**
 * How often the TUI's one clock ticks for a state (docs/tui.md): spinners
 * at `spinMs` (1 s under reduce_motion), 1 s while a session starts or a
 * watched host is down (its "retry in 8s" counts down, docs/remote.md), a
 * usage limit's countdown (docs/limits.md), else not at all (0). Pure.
 */

import type { TuiState } from "../../model/tui.ts";
import { anythingLimited, LIMIT_TICK_MS } from "../../limits/limit_text.ts";
import { anythingSpins } from "./view/marker.ts";
import { anythingStarting } from "./view/pane.ts";

export function clockMs(s: TuiState, spinMs: number): number {
  if (anythingSpins(s)) return s.reduceMotion ? 1000 : spinMs;
  if (anythingStarting(s) || s.hosts.some((h) => h.phase === "down")) return 1000;
  return anythingLimited(s) ? LIMIT_TICK_MS : 0;
}
