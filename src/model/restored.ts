/**
 * A restored session's old screen (docs/restore.md, "How a session comes back"): written
 * dimmed into the new session's emulator above RESTORED_RULE. It is what the session showed
 * before, not what its new process shows: detection must not read it (an old usage limit,
 * an old prompt would be taken for the new agent's).
 */

import type { ScreenView } from "./snapshot.ts";

/** The rule a restored session shows under its old screen (src/restore/plan.ts). */
export const RESTORED_RULE = "── restored by lazyshell: the screen above is from before ──";

/**
 * The view with the rows down to the last RESTORED_RULE blank (same size, so a rule's
 * region keeps its rows), or null when no row is the rule.
 */
export function belowRestoredRule(view: ScreenView): ScreenView | null {
  let rule = -1;
  for (let y = view.rows - 1; y >= 0; y--) {
    if (view.line(y).trimEnd() === RESTORED_RULE) {
      rule = y;
      break;
    }
  }
  if (rule < 0) return null;
  const styles = view.styles;
  const fg = view.fg;
  return {
    cols: view.cols,
    rows: view.rows,
    title: view.title,
    line: (y) => (y <= rule ? "" : view.line(y)),
    ...(styles ? { styles: (y: number) => (y <= rule ? [] : styles.call(view, y)) } : {}),
    ...(fg ? { fg: (y: number, i: number) => fg.call(view, y, i) } : {}),
  };
}
