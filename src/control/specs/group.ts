/** `group TARGET GROUP`: puts a session in a group (C2). */

import { defineSpec, GROUP_ARG, label, TARGET_ARG } from "../spec.ts";

export interface GroupResult {
  readonly id: string;
  readonly name: string;
  readonly group: string | null;
}

export default defineSpec<GroupResult>({
  name: "group",
  summary: "Put a session in a group",
  args: [
    TARGET_ARG,
    GROUP_ARG,
  ],
  format(r) {
    return `${label(r)} is in group ${r.group}`;
  },
});
