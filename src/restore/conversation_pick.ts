/**
 * Which stored conversation is which session's (docs/restore.md, "Where the
 * conversation id comes from"). Pure: the caller read the agents' processes
 * and stores (agent_process.ts, conversation_store.ts).
 *
 * For one agent, in order of evidence:
 * 1. the conversation the agent's own per-process file names (Claude Code's
 *    `sessions/<pid>.json`, its start time checked): exact;
 * 2. a transcript the agent's process holds open: exact;
 * 3. otherwise a conversation of the session's working directory created
 *    after its agent process started (at most `slackMs` before: the start
 *    time is known to about a second). One that more than one session's
 *    agent could have created (same agent, same folder, both running before
 *    it was) goes to the one that has no conversation yet, when exactly one
 *    has none; else it stays with the session that already holds it, else
 *    with nobody: a wrong resume is worse than none. A session gets the
 *    newest of its own;
 * 4. a session that still has none takes a conversation created before its
 *    agent started but written since (a resumed one: `codex resume <id>`
 *    appends to its old rollout), when it is the only such one there and no
 *    other session of the folder could take it.
 *
 * Never a conversation another session already holds.
 */

import type { StoredConversation } from "./conversation_store.ts";

export interface SessionEvidence {
  /** The lazyshell session. */
  readonly session: string;
  /** Its agent process's working directory and start time (ms since the epoch). */
  readonly cwd: string;
  readonly startedAt: number;
  /** The id the session holds now, or null. */
  readonly current: string | null;
  /** The conversation its process file names (step 1), or null. */
  readonly byProcess: StoredConversation | null;
  /** Files its agent's processes hold open (step 2). */
  readonly openFiles: readonly string[];
}

/** A session's conversation and why: `process`, `open`, `created`, `written`. */
export interface Pick {
  readonly conversation: StoredConversation;
  readonly how: "process" | "open" | "created" | "written";
}

/** The start time is known to about a second (the kernel's boot time is in whole seconds). */
export const START_SLACK_MS = 2000;

/**
 * Picks for the sessions of one agent. `stored`: that agent's conversations
 * of their folders written since the earliest start; `heldElsewhere`: ids
 * held by sessions not in `sessions` (another agent's, a hook's).
 */
export function pickConversations(
  sessions: readonly SessionEvidence[],
  stored: readonly StoredConversation[],
  heldElsewhere: ReadonlySet<string> = new Set(),
  slackMs = START_SLACK_MS,
): Map<string, Pick> {
  const picks = new Map<string, Pick>();
  const taken = new Set(heldElsewhere);
  // 1 and 2: exact evidence first.
  for (const s of sessions) {
    const open = s.byProcess === null
      ? stored.find((c) => c.transcript !== null && s.openFiles.includes(c.transcript))
      : undefined;
    const pick: Pick | null = s.byProcess
      ? { conversation: s.byProcess, how: "process" }
      : open
      ? { conversation: open, how: "open" }
      : null;
    if (pick && !taken.has(pick.conversation.id)) {
      picks.set(s.session, pick);
      taken.add(pick.conversation.id);
    }
  }
  const holder = new Map<string, string>();
  for (const s of sessions) if (s.current !== null) holder.set(s.current, s.session);
  const open = sessions.filter((s) => !picks.has(s.session));
  // 3: created after an agent started, oldest first (a session ends with its newest).
  const created = stored
    .filter((c) => c.createdAt !== null && !taken.has(c.id))
    .sort((a, b) => a.createdAt! - b.createdAt!);
  for (const c of created) {
    const could = open.filter((s) => s.cwd === c.cwd && s.startedAt - slackMs <= c.createdAt!);
    const owner = ownerOf(c, could, holder);
    if (owner === null) continue;
    // Another session holds it: not this one's to take.
    const held = holder.get(c.id);
    if (held !== undefined && held !== owner.session) continue;
    picks.set(owner.session, { conversation: c, how: "created" });
  }
  for (const p of picks.values()) taken.add(p.conversation.id);
  // 4: resumed — created before the agent started, written since; one candidate, one taker.
  for (const s of open) {
    if (picks.has(s.session) || s.current !== null) continue;
    const resumed = stored.filter((c) =>
      c.cwd === s.cwd && !taken.has(c.id) && !holder.has(c.id) &&
      (c.createdAt === null || c.createdAt < s.startedAt - slackMs) && c.modifiedAt >= s.startedAt
    );
    const rivals = open.filter((o) =>
      o !== s && o.cwd === s.cwd && !picks.has(o.session) && o.current === null
    );
    if (resumed.length === 1 && rivals.length === 0) {
      picks.set(s.session, { conversation: resumed[0]!, how: "written" });
      taken.add(resumed[0]!.id);
    }
  }
  return picks;
}

/** Which of the sessions that could have created `c` did, or null when that cannot be told. */
function ownerOf(
  c: StoredConversation,
  could: readonly SessionEvidence[],
  holder: ReadonlyMap<string, string>,
): SessionEvidence | null {
  if (could.length <= 1) return could[0] ?? null;
  const held = could.find((s) => holder.get(c.id) === s.session);
  if (held) return held;
  const none = could.filter((s) => s.current === null);
  return none.length === 1 ? none[0]! : null;
}
