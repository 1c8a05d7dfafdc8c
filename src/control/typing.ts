/**
 * Scripted typing for `send` and `group-send`: the text, then Enter as a
 * separate write after a pause. Written together ("text\r" in one write),
 * the Enter arrives inside what TUIs that detect pastes by timing take for
 * a paste burst, and becomes a newline in the input instead of submitting:
 * Codex 0.171 (120 ms window after a burst) never started the turn
 * (found with tools/live).
 */

import type { Session } from "../session/session.ts";
import { delay } from "../util/async.ts";

/** Pause between the text and its Enter: longer than Codex's 120 ms paste-Enter window. */
export const ENTER_GAP_MS = 250;

/** Types `text` into every session, then (with `enter`) Enter into those still running. */
export async function typeInto(
  sessions: readonly Session[],
  text: string,
  enter: boolean,
): Promise<void> {
  if (text !== "") { for (const s of sessions) s.write(text, false); }
  if (!enter) return;
  if (text !== "") await delay(ENTER_GAP_MS);
  for (const s of sessions) if (s.status !== "exited") s.write("\r", false);
}
