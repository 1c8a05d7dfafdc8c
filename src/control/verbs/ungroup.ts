/** `ungroup TARGET`'s body; its spec is ../specs/ungroup.ts. */

import { defineVerb, str } from "../verb.ts";
import { resolveTarget } from "../targets.ts";
import spec from "../specs/ungroup.ts";

export default defineVerb(spec, ({ host }, args) => {
  const session = resolveTarget(host.sessions, str(args, "target")!);
  const previous = session.group;
  host.sessions.setGroup(session.id, null);
  return { id: session.id, name: session.name, previous };
});
