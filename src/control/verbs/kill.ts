/** `kill TARGET`'s body; its spec (and what it does) is ../specs/kill.ts. */

import { UserError } from "../../errors.ts";
import type { Session } from "../../session/session.ts";
import { within } from "../../util/async.ts";
import { defineVerb, str } from "../verb.ts";
import { entryOf, label } from "../entry.ts";
import { resolveTarget } from "../targets.ts";
import spec from "../specs/kill.ts";

export default defineVerb(spec, async ({ host }, args) => {
  const session = resolveTarget(host.sessions, str(args, "target")!);
  if (session.status === "exited") throw new UserError(`${label(session)} has already exited`);
  await endSession(session);
  return entryOf(host, session);
});

/**
 * Ends the session's process and what it started (Session.end: SIGHUP,
 * SIGTERM, SIGKILL); resolves once it has exited (bounded).
 */
export async function endSession(session: Session): Promise<void> {
  await session.end();
  await within(session.exited, 1000);
}
