/**
 * `new [--name N] [--cwd D] [--command C] [--group G]`: starts a session
 * without taking the selection or the keyboard (C2). `ctl` sends --cwd as
 * an absolute path (relative to the caller); without it the session starts
 * in lazyshell's working directory.
 */

import { defineVerb, str } from "../verb.ts";
import { entryOf, type SessionEntry } from "../entry.ts";

export default defineVerb({
  name: "new",
  summary: "Start a session (does not take focus); prints its id",
  args: [
    { name: "name", type: "string", meta: "N", help: "session name (unique)" },
    { name: "cwd", type: "path", meta: "D", help: "working directory" },
    {
      name: "command",
      type: "string",
      meta: "C",
      help: "command run through $SHELL -c (default: a shell)",
    },
    { name: "group", type: "string", meta: "G", help: "put the session in group G" },
  ],
  run({ host }, args): SessionEntry {
    const name = str(args, "name");
    const cwd = str(args, "cwd");
    const command = str(args, "command");
    const group = str(args, "group");
    const session = host.createSession({
      ...(name !== undefined ? { name } : {}),
      ...(cwd !== undefined ? { cwd } : {}),
      ...(command !== undefined ? { command } : {}),
      ...(group !== undefined ? { group } : {}),
    });
    return entryOf(host, session);
  },
  format(entry) {
    return entry.id;
  },
});
