/**
 * What a failure at one client's entry point does to that client (its input,
 * its frames, its listeners and timers; docs/architecture.md, "A failure
 * ends its owner, never its neighbours"): the first redraws it from scratch;
 * another within REPEAT_MS disconnects it, with one line saying why, which
 * the client prints. Its sessions and every other client never notice.
 */

import { messageOf } from "../errors.ts";
import type { Owner } from "../util/guard.ts";

/** A second failure this soon after the first (the redraw failed too): the client is dropped. */
export const REPEAT_MS = 10_000;

export interface ClientFaultActions {
  /** Draws the client again from nothing (TuiApp.reset). */
  reset(): void;
  /** Disconnects the client; `message` is the line it prints. */
  drop(message: string): void;
}

/** The owner of client `id`'s entry points; `crashLog` is named in the line a dropped client prints. */
export function clientOwner(
  id: string,
  actions: ClientFaultActions,
  crashLog: string,
  now: () => number = () => performance.now(),
): Owner {
  let last = -Infinity;
  let dropped = false;
  return {
    name: id,
    fault(error, where) {
      if (dropped) return "already disconnected";
      const at = now();
      const again = at - last < REPEAT_MS;
      last = at;
      if (!again) {
        actions.reset();
        return "redrawn from scratch";
      }
      dropped = true;
      actions.drop(dropMessage(where, error, crashLog));
      return "disconnected";
    },
  };
}

export function dropMessage(where: string, error: unknown, crashLog: string): string {
  const why = messageOf(error).split("\n")[0];
  return `This client was disconnected after an internal error in its ${where}, twice ` +
    `(${why}; details in ${crashLog}); its sessions keep running: \`lazyshell attach\``;
}
