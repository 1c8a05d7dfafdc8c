/** `ungroup TARGET`: takes a session out of its group (C2). */

import { defineVerb, str, TARGET_ARG } from "../verb.ts";
import { label } from "../entry.ts";
import { resolveTarget } from "../targets.ts";

export default defineVerb({
  name: "ungroup",
  summary: "Take a session out of its group",
  args: [
    TARGET_ARG,
  ],
  run({ host }, args): { id: string; name: string; previous: string | null } {
    const session = resolveTarget(host.sessions, str(args, "target")!);
    const previous = session.group;
    host.sessions.setGroup(session.id, null);
    return { id: session.id, name: session.name, previous };
  },
  format(r) {
    return r.previous === null
      ? `${label(r)} was in no group`
      : `${label(r)} left group ${r.previous}`;
  },
});
