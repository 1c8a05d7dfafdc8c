/**
 * The restore offer's effects against the server's saved sessions
 * (src/restore/restore.ts, docs/restore.md): what to offer, and restoring
 * or forgetting what the user chose, said in one line.
 */

import type { OfferItem, RestoreOutcome, SessionRestore } from "../restore/restore.ts";
import type { TuiEvent } from "./core/events.ts";

/** The offer to show (empty when nothing waits, or no server keeps a state file). */
export function offerEvent(
  restore: SessionRestore | null,
  problem: string | null = null,
): TuiEvent {
  const items: OfferItem[] = restore?.offer() ?? [];
  return { type: "restore-offer", items, problem };
}

/** Restores and forgets; the events that follow (a message, the first new session selected). */
export function runRestore(
  restore: SessionRestore | null,
  names: readonly string[],
  forget: readonly string[],
): TuiEvent[] {
  if (restore === null) {
    return [{ type: "message", text: "This lazyshell keeps no saved sessions", error: true }];
  }
  const forgotten = forget.length > 0 ? restore.forget(forget) : 0;
  const outcomes = names.length > 0 ? restore.restore(names) : [];
  const events: TuiEvent[] = [{ type: "message", ...summary(outcomes, forgotten) }];
  const first = outcomes.find((o) => o.id !== undefined);
  if (first?.id) events.push({ type: "select", id: first.id });
  return events;
}

/** `Restored 3 sessions (claude resumed); forgot 1`, or the first failure. */
export function summary(
  outcomes: readonly RestoreOutcome[],
  forgotten: number,
): { text: string; error: boolean } {
  const failed = outcomes.find((o) => !o.ok);
  if (failed) return { text: failed.text, error: true };
  const started = outcomes.filter((o) => o.id !== undefined);
  const resumed = started.filter((o) => / resumes /.test(o.text)).length;
  const fresh = started.filter((o) => / fresh: /.test(o.text)).length;
  const parts: string[] = [];
  if (started.length > 0) {
    const extra = [
      resumed > 0 ? `${resumed} conversation${resumed === 1 ? "" : "s"} resumed` : "",
      fresh > 0 ? `${fresh} agent${fresh === 1 ? "" : "s"} started fresh (no id)` : "",
    ].filter(Boolean).join(", ");
    parts.push(
      `Restored ${started.length} session${started.length === 1 ? "" : "s"}` +
        (extra ? ` (${extra})` : ""),
    );
  }
  const running = outcomes.length - started.length;
  if (running > 0) parts.push(`${running} already running`);
  if (forgotten > 0) parts.push(`forgot ${forgotten}`);
  return { text: parts.join("; ") || "Nothing restored", error: false };
}
