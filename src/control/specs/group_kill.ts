/**
 * `group-kill GROUP`: ends every running member (C2–C3); they stay listed
 * as exited. Prints how many were killed; per-member results in --json.
 */

import { defineSpec, GROUP_ARG } from "../spec.ts";

export interface GroupKillResult {
  readonly group: string;
  readonly count: number;
  readonly members: { id: string; name: string; result: "killed" | "already exited" }[];
}

export default defineSpec<GroupKillResult>({
  name: "group-kill",
  summary: "End every running session of a group",
  args: [
    GROUP_ARG,
  ],
  format(r) {
    return `Killed ${r.count} session${r.count === 1 ? "" : "s"} of group ${r.group}`;
  },
});
