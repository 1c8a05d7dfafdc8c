/**
 * `kill TARGET`: ends the session's process and everything it started
 * (SIGHUP, SIGTERM, SIGKILL while anything lingers) and waits for it; the session stays listed as exited (C2). There is no
 * delete verb.
 */

import { UserError } from "../../errors.ts";
import type { Session } from "../../session/session.ts";
import { within } from "../../util/async.ts";
import { defineVerb, str, TARGET_ARG } from "../verb.ts";
import { entryOf, label, type SessionEntry } from "../entry.ts";
import { resolveTarget } from "../targets.ts";

export default defineVerb({
  name: "kill",
  summary: "End a session's process (it stays listed as exited)",
  args: [
    TARGET_ARG,
  ],
  async run({ host }, args): Promise<SessionEntry> {
    const session = resolveTarget(host.sessions, str(args, "target")!);
    if (session.status === "exited") throw new UserError(`${label(session)} has already exited`);
    await endSession(session);
    return entryOf(host, session);
  },
  format(entry) {
    return `Killed ${label(entry)}`;
  },
});

/**
 * Ends the session's process and what it started (Session.end: SIGHUP,
 * SIGTERM, SIGKILL); resolves once it has exited (bounded).
 */
export async function endSession(session: Session): Promise<void> {
  await session.end();
  await within(session.exited, 1000);
}
