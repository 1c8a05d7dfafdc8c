/**
 * Target resolution for every verb, in one place (like tmux's cmd-find):
 * a TARGET is a session id (`session-2`, the value of
 * $LAZYSHELL_SESSION_ID) or an exact name; `--group G` names every session
 * of that group. An unknown target and an empty or unknown group are
 * errors — a broadcast never silently touches 0 sessions (C3).
 */

import { UserError } from "../errors.ts";
import type { Session } from "../session/session.ts";
import type { SessionHandles } from "../session/store.ts";

export interface TargetQuery {
  readonly target?: string | undefined;
  readonly group?: string | undefined;
}

/** The sessions a verb acts on, in creation order; never empty. */
export function resolveTargets(store: SessionHandles, query: TargetQuery): Session[] {
  const { target, group } = query;
  if (target !== undefined && group !== undefined) {
    throw new UserError("Give a target or --group, not both");
  }
  if (target !== undefined) return [store.resolve(target)];
  if (group !== undefined) {
    const members = store.inGroup(group);
    if (members.length === 0) {
      const known = [...new Set(store.list().map((s) => s.group).filter((g) => g !== null))];
      throw new UserError(
        `No session in group ${group}` +
          (known.length ? ` (groups: ${known.join(", ")})` : " (there are no groups)"),
      );
    }
    return members;
  }
  throw new UserError("Give a target (session id or name) or --group");
}

/** One session by id or exact name. */
export function resolveTarget(store: SessionHandles, target: string): Session {
  return resolveTargets(store, { target })[0]!;
}
