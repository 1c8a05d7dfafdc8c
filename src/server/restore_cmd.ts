/**
 * `lazyshell restore [--all|--forget] [NAME...]`, answered by the server
 * (which holds the saved sessions, docs/restore.md): the text the client
 * prints and its exit code.
 */

import type { SessionRestore } from "../restore/restore.ts";
import type { RestoreRequest } from "../wire/protocol.ts";

export interface RestoreAnswer {
  readonly text: string;
  readonly code: number;
}

export function answerRestore(restore: SessionRestore | null, req: RestoreRequest): RestoreAnswer {
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
