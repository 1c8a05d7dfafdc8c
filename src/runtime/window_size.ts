/**
 * Which size a session's PTY takes when clients of different sizes show it
 * (config `window_size`, tmux's habit of the same name; docs/tui.md,
 * "Clients of different sizes"):
 *
 * - `latest`: the pane of the client that last typed into it, focused it or
 *   tiled it (Runtime.claimSize), and that client's resizes;
 * - `smallest` / `largest`: the smallest / largest width and height among
 *   the panes that show it now (each side on its own, as tmux does); a
 *   session no client shows keeps its size;
 * - `manual`: the size it started with; clients never resize it.
 *
 * Whatever the policy, a client whose pane is smaller than the session shows
 * the rows around its cursor (src/tui/core/view/pane_window.ts). Pure.
 */

import type { WindowSize } from "../config/config.ts";

export interface Size {
  readonly cols: number;
  readonly rows: number;
}

/** The size `policy` gives a session shown in panes of `sizes` (null: leave it as it is). */
export function policySize(policy: WindowSize, sizes: readonly Size[]): Size | null {
  if (sizes.length === 0 || (policy !== "smallest" && policy !== "largest")) return null;
  const pick = policy === "smallest" ? Math.min : Math.max;
  return { cols: pick(...sizes.map((s) => s.cols)), rows: pick(...sizes.map((s) => s.rows)) };
}
