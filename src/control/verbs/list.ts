/** `list [--group G]`'s body; its spec is ../specs/list.ts. */

import { defineVerb, str } from "../verb.ts";
import { entryOf } from "../entry.ts";
import { resolveTargets } from "../targets.ts";
import spec from "../specs/list.ts";

export default defineVerb(spec, ({ host }, args) => {
  const group = str(args, "group");
  const sessions = group === undefined
    ? host.sessions.list()
    : resolveTargets(host.sessions, { group });
  return { sessions: sessions.map((s) => entryOf(host, s)) };
});
