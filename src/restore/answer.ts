/**
 * `lazyshell restore [--all|--forget] [NAME...]`: the text the client prints
 * and its exit code (docs/restore.md). One wording whoever answers: the
 * server (which holds the saved sessions while it runs) or, when none
 * runs and nothing is to be started, the client reading the state file
 * itself (src/restore/without_server.ts).
 */

import type { OfferItem, RestoreOutcome } from "./restore.ts";

/** What is asked (the hello's `restore`, src/wire/protocol.ts). */
export interface RestoreAsk {
  readonly all: boolean;
  readonly forget: boolean;
  readonly names: readonly string[];
}

/** The saved sessions, as a server's SessionRestore or the state file alone shows them. */
export interface SavedSessions {
  /** The one line about a damaged or refused state file, or null. */
  readonly problem: string | null;
  readonly pendingCount: number;
  offer(): OfferItem[];
  forget(which: readonly string[] | "all"): number;
  restore(which: readonly string[] | "all"): RestoreOutcome[];
}

export interface RestoreAnswer {
  readonly text: string;
  readonly code: number;
}

export function answerRestore(restore: SavedSessions | null, req: RestoreAsk): RestoreAnswer {
  const problem = restore?.problem ? `${restore.problem}\n` : "";
  if (restore === null || restore.pendingCount === 0 && req.names.length === 0) {
    return { text: `${problem}Nothing to restore: no saved session is waiting\n`, code: 0 };
  }
  const which = req.all || req.names.length === 0 ? "all" : req.names;
  if (req.forget) {
    const n = restore.forget(which);
    return { text: `Forgot ${n} saved session${n === 1 ? "" : "s"}\n`, code: 0 };
  }
  if (!req.all && req.names.length === 0) {
    const items = restore.offer().map((i) =>
      `  ${i.name}${i.group === null ? "" : ` [${i.group}]`}: ${i.how}\n`
    );
    return {
      text: `${problem}Saved sessions not running:\n${items.join("")}` +
        "Restore them with `lazyshell restore --all` or `lazyshell restore NAME...`; " +
        "`lazyshell restore --forget [NAME...]` drops them\n",
      code: 0,
    };
  }
  const outcomes = restore.restore(which);
  return {
    text: outcomes.map((o) => `${o.text}\n`).join(""),
    code: outcomes.every((o) => o.ok) ? 0 : 1,
  };
}
