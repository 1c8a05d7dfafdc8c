/**
 * Scripted typing for `send` and `group-send`: the text, then Enter as a
 * separate write after a pause. Written together ("text\r" in one write),
 * the Enter arrives inside what TUIs that detect pastes by timing take for
 * a paste burst, and becomes a newline in the input instead of submitting:
 * Codex 0.171 (120 ms window after a burst) never started the turn
 * (found with tools/live).
 */

import { UserError } from "../errors.ts";
import type { Session } from "../session/session.ts";
import { MAX_QUEUED_INPUT } from "../session/pty_writer.ts";
import { delay } from "../util/async.ts";
import { label } from "./entry.ts";

/** Pause between the text and its Enter: longer than Codex's 120 ms paste-Enter window. */
export const ENTER_GAP_MS = 250;

/** A session that refused input: its text (nothing sent), or only the Enter after it. */
export interface Refusal {
  readonly session: Session;
  readonly what: "text" | "enter";
}

/**
 * Types `text` into every session, then (with `enter`) Enter into those
 * still running. Returns the sessions that refused: their child has not
 * read the input already waiting (over MAX_QUEUED_INPUT). A session that
 * refused the text gets no Enter either. `beforeEnter` runs (and is
 * awaited) between the two: receipts wait there for the text to show in
 * the input box.
 */
export async function typeInto(
  sessions: readonly Session[],
  text: string,
  enter: boolean,
  beforeEnter?: () => void | Promise<void>,
): Promise<Refusal[]> {
  const refused: Refusal[] = text === ""
    ? []
    : sessions.filter((s) => !s.write(text, false)).map((session) => ({ session, what: "text" }));
  if (!enter) return refused;
  if (text !== "") await delay(ENTER_GAP_MS);
  await beforeEnter?.();
  for (const session of sessions) {
    if (session.status === "exited" || refused.some((r) => r.session === session)) continue;
    if (!session.write("\r", false)) refused.push({ session, what: "enter" });
  }
  return refused;
}

/** The one-line error of a session whose input queue is full. */
export function inputFull({ session, what }: Refusal): UserError {
  const limit = MAX_QUEUED_INPUT / 1024 / 1024;
  return new UserError(
    `${label(session)} is not reading its input (over ${limit} MiB waiting): ` +
      (what === "text" ? "nothing sent" : "text sent, Enter not"),
  );
}
