/**
 * `kill TARGET`: ends the session's process (SIGHUP, SIGKILL if it lingers)
 * and waits for it; the session stays listed as exited (C2). There is no
 * delete verb.
 */

import { UserError } from "../../errors.ts";
import type { Session } from "../../session/session.ts";
import { within } from "../../util/async.ts";
import { defineVerb, str, TARGET_ARG } from "../verb.ts";
import { entryOf, label, type SessionEntry } from "../entry.ts";
import { resolveTarget } from "../targets.ts";
import type { ControlHost } from "../host.ts";

export default defineVerb({
  name: "kill",
  summary: "End a session's process (it stays listed as exited)",
  args: [
    TARGET_ARG,
  ],
  async run({ host }, args): Promise<SessionEntry> {
    const session = resolveTarget(host.store, str(args, "target")!);
    if (session.status === "exited") throw new UserError(`${label(session)} has already exited`);
    await endSession(host, session);
    return entryOf(host, session);
  },
  format(entry) {
    return `Killed ${label(entry)}`;
  },
});

/** SIGHUP (a closed terminal), then SIGKILL after 2 s; resolves once it has exited. */
export async function endSession(host: ControlHost, session: Session): Promise<void> {
  host.store.kill(session.id, "SIGHUP");
  if (await within(session.exited, 2000)) return;
  host.store.kill(session.id, "SIGKILL");
  await within(session.exited, 5000);
}
