/**
 * `new [--name N] [--cwd D] [--command C] [--group G]`: starts a session
 * without taking the selection or the keyboard (C2). `ctl` sends --cwd as
 * an absolute path (relative to the caller); without it the session starts
 * in lazyshell's working directory.
 *
 * `new --agent ID [--prompt T] [--worktree]` starts an agent of the
 * catalog instead of a command (src/runtime/launch.ts): named after the
 * prompt unless --name says, in a new git worktree with --worktree, the
 * prompt typed once the agent is ready. It answers once the session runs;
 * `ctl wait TARGET --state working` follows the prompt's turn.
 */

import { defineSpec } from "../spec.ts";
import type { SessionEntry } from "../entry.ts";

export default defineSpec<SessionEntry>({
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
    { name: "agent", type: "string", meta: "ID", help: "start this agent of the catalog instead" },
    { name: "prompt", type: "string", meta: "T", help: "with --agent: typed once it is ready" },
    {
      name: "worktree",
      type: "bool",
      help: "with --agent: in a new git worktree, on a branch named after the session",
    },
  ],
  format(entry) {
    return entry.id;
  },
});
