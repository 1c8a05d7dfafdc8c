/** `group-kill GROUP`'s body; its spec (and what it does) is ../specs/group_kill.ts. */

import { UserError } from "../../errors.ts";
import { defineVerb, str } from "../verb.ts";
import { resolveTargets } from "../targets.ts";
import { endSession } from "./kill.ts";
import spec from "../specs/group_kill.ts";

export default defineVerb(spec, async ({ host }, args) => {
  const group = str(args, "group")!;
  const members = resolveTargets(host.sessions, { group });
  const running = members.filter((s) => s.status === "running");
  if (running.length === 0) {
    throw new UserError(`Every session of group ${group} has already exited`);
  }
  await Promise.all(running.map((s) => endSession(s)));
  return {
    group,
    count: running.length,
    members: members.map((s) => ({
      id: s.id,
      name: s.name,
      result: running.includes(s) ? "killed" as const : "already exited" as const,
    })),
  };
});
