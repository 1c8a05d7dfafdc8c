/** `ungroup TARGET`: takes a session out of its group (C2). */

import { defineSpec, label, TARGET_ARG } from "../spec.ts";

export interface UngroupResult {
  readonly id: string;
  readonly name: string;
  readonly previous: string | null;
}

export default defineSpec<UngroupResult>({
  name: "ungroup",
  summary: "Take a session out of its group",
  args: [
    TARGET_ARG,
  ],
  format(r) {
    return r.previous === null
      ? `${label(r)} was in no group`
      : `${label(r)} left group ${r.previous}`;
  },
});
