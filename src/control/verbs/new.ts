/** `new`'s body; its spec (and what it does) is ../specs/new.ts. */

import { UserError } from "../../errors.ts";
import { defineVerb, flag, str } from "../verb.ts";
import { entryOf } from "../entry.ts";
import spec from "../specs/new.ts";

export default defineVerb(spec, async ({ host }, args) => {
  const name = str(args, "name");
  const cwd = str(args, "cwd");
  const command = str(args, "command");
  const group = str(args, "group");
  const agent = str(args, "agent");
  const prompt = str(args, "prompt");
  if (agent === undefined && (prompt !== undefined || flag(args, "worktree"))) {
    throw new UserError("--prompt and --worktree go with --agent");
  }
  if (agent !== undefined) {
    if (command !== undefined) throw new UserError("Give --agent or --command, not both");
    const session = await host.launchAgent({
      agent,
      worktree: flag(args, "worktree"),
      ...(name !== undefined ? { name } : {}),
      ...(cwd !== undefined ? { cwd } : {}),
      ...(prompt !== undefined ? { prompt } : {}),
      ...(group !== undefined ? { group } : {}),
    });
    return entryOf(host, session);
  }
  const session = host.createSession({
    ...(name !== undefined ? { name } : {}),
    ...(cwd !== undefined ? { cwd } : {}),
    ...(command !== undefined ? { command } : {}),
    ...(group !== undefined ? { group } : {}),
  });
  return entryOf(host, session);
});
