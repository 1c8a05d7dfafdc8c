/**
 * `group-kill GROUP`: ends every running member (C2–C3); they stay listed
 * as exited. Prints how many were killed; per-member results in --json.
 */

import { UserError } from "../../errors.ts";
import { defineVerb, GROUP_ARG, str } from "../verb.ts";
import { resolveTargets } from "../targets.ts";
import { endSession } from "./kill.ts";

export default defineVerb({
  name: "group-kill",
  summary: "End every running session of a group",
  args: [
    GROUP_ARG,
  ],
  async run({ host }, args): Promise<{
    group: string;
    count: number;
    members: { id: string; name: string; result: "killed" | "already exited" }[];
  }> {
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
        result: running.includes(s) ? "killed" : "already exited",
      })),
    };
  },
  format(r) {
    return `Killed ${r.count} session${r.count === 1 ? "" : "s"} of group ${r.group}`;
  },
});
