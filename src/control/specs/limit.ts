/**
 * `limit TARGET [--resume | --cancel]` (docs/limits.md): a session's usage limit and its
 * pending resume; `--resume` resumes now (the `ask` answer: after the reset, under the same
 * re-check as `auto`), `--cancel` stops it for this limit.
 */

import { defineSpec, TARGET_ARG } from "../spec.ts";
import { formatReset } from "../../limits/reset_time.ts";

export interface LimitResult {
  readonly id: string;
  readonly resetsAt: string | null;
  readonly phase: string;
  readonly reason: string | null;
}

export default defineSpec<LimitResult>({
  name: "limit",
  summary: "Show a session's usage limit and pending resume; resume now or cancel it",
  args: [
    TARGET_ARG,
    { name: "resume", type: "bool", help: "resume now (after the reset, re-checked)" },
    { name: "cancel", type: "bool", help: "do not resume this limit" },
  ],
  format(r) {
    const at = r.resetsAt === null
      ? "no limit shown"
      : `resets ${formatReset(Date.parse(r.resetsAt), Date.now())}`;
    return `${r.id}: ${at}; resume ${r.phase}${r.reason ? ` (${r.reason})` : ""}`;
  },
});
