/** `rename TARGET NAME` (C2). */

import { defineVerb, str, TARGET_ARG } from "../verb.ts";
import { resolveTarget } from "../targets.ts";

export default defineVerb({
  name: "rename",
  summary: "Rename a session",
  args: [
    TARGET_ARG,
    {
      name: "name",
      type: "string",
      positional: true,
      required: true,
      meta: "NAME",
      help: "new unique name",
    },
  ],
  run({ host }, args): { id: string; name: string; previous: string } {
    const session = resolveTarget(host.sessions, str(args, "target")!);
    const previous = session.name;
    host.sessions.rename(session.id, str(args, "name")!);
    return { id: session.id, name: session.name, previous };
  },
  format(r) {
    return `Renamed ${r.id} from ${r.previous} to ${r.name}`;
  },
});
