/** `rename TARGET NAME`'s body; its spec is ../specs/rename.ts. */

import { defineVerb, str } from "../verb.ts";
import { resolveTarget } from "../targets.ts";
import spec from "../specs/rename.ts";

export default defineVerb(spec, ({ host }, args) => {
  const session = resolveTarget(host.sessions, str(args, "target")!);
  const previous = session.name;
  host.sessions.rename(session.id, str(args, "name")!);
  return { id: session.id, name: session.name, previous };
});
