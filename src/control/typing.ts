/**
 * Scripted typing for `send` and `group-send`: the text, then Enter as a
 * separate write a pause after the child read the text (enter_wait.ts).
 * Written together ("text\r" in one write), the Enter arrives inside what
 * TUIs that detect pastes by timing take for a paste burst, and becomes a
 * newline in the input instead of submitting: Codex 0.171 (120 ms window
 * after a burst) never started the turn (found with tools/live).
 */

import { UserError } from "../errors.ts";
import type { Session } from "../session/session.ts";
import { MAX_QUEUED_INPUT } from "../session/pty_writer.ts";
import { delay } from "../util/async.ts";
import { label } from "./entry.ts";
import { EnterWait } from "./enter_wait.ts";

export { ENTER_GAP_MS } from "./enter_wait.ts";

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
  if (text !== "") {
    const writtenAt = Date.now();
    await Promise.all(
      sessions.filter((s) => !refused.some((r) => r.session === s)).map((s) =>
        untilRead(s, writtenAt)
      ),
    );
  }
  await beforeEnter?.();
  for (const session of sessions) {
    if (session.status === "exited" || refused.some((r) => r.session === session)) continue;
    if (!session.write("\r", false)) refused.push({ session, what: "enter" });
  }
  return refused;
}

/**
 * Resolves once Enter may follow text written to `session` at `writtenAt`:
 * ENTER_GAP_MS after the child read it (enter_wait.ts), at most READ_WAIT_MS
 * after the write; ENTER_GAP_MS after the write where its input queue cannot be read.
 */
export async function untilRead(session: Session, writtenAt: number): Promise<void> {
  const wait = new EnterWait(writtenAt);
  for (;;) {
    if (session.status === "exited") return;
    const step = wait.next(Date.now(), session.unreadInput());
    if (step.type === "enter") return;
    await delay(step.ms);
  }
}

/** The one-line error of a session whose input queue is full. */
export function inputFull({ session, what }: Refusal): UserError {
  const limit = MAX_QUEUED_INPUT / 1024 / 1024;
  return new UserError(
    `${label(session)} is not reading its input (over ${limit} MiB waiting): ` +
      (what === "text" ? "nothing sent" : "text sent, Enter not"),
  );
}
