/** `group TARGET GROUP`: puts a session in a group (C2). */

import { defineVerb, GROUP_ARG, str, TARGET_ARG } from "../verb.ts";
import { label } from "../entry.ts";
import { resolveTarget } from "../targets.ts";

export default defineVerb({
  name: "group",
  summary: "Put a session in a group",
  args: [
    TARGET_ARG,
    GROUP_ARG,
  ],
  run({ host }, args): { id: string; name: string; group: string | null } {
    const session = resolveTarget(host.sessions, str(args, "target")!);
    host.sessions.setGroup(session.id, str(args, "group")!);
    return { id: session.id, name: session.name, group: session.group };
  },
  format(r) {
    return `${label(r)} is in group ${r.group}`;
  },
});
