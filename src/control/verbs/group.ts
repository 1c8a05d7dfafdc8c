/** `group TARGET GROUP`'s body; its spec is ../specs/group.ts. */

import { defineVerb, str } from "../verb.ts";
import { resolveTarget } from "../targets.ts";
import spec from "../specs/group.ts";

export default defineVerb(spec, ({ host }, args) => {
  const session = resolveTarget(host.sessions, str(args, "target")!);
  host.sessions.setGroup(session.id, str(args, "group")!);
  return { id: session.id, name: session.name, group: session.group };
});
