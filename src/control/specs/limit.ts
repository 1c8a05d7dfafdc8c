/**
 * `limit TARGET [--resume | --cancel] [--policy P]` and `limit --group G --policy P`
 * (docs/limits.md): a session's usage limit, its pending resume and the resume policy in
 * force; `--resume` resumes now (the `ask` answer: after the reset, under the same re-check as
 * `auto`), `--cancel` stops it for this limit, `--policy off|ask|auto|default` sets the
 * session's own policy (`default`: none, its group's or agent's applies) or, with `--group`,
 * the group's.
 */

import { defineSpec, TARGET_ARG } from "../spec.ts";
import { formatReset } from "../../limits/reset_time.ts";

export interface LimitResult {
  /** The session, or null for `--group`. */
  readonly id: string | null;
  readonly group: string | null;
  readonly resetsAt: string | null;
  readonly phase: string;
  readonly reason: string | null;
  /** The policy in force (`off`, `ask`, `auto`) … */
  readonly policy: string | null;
  /** … and where it comes from: `session`, `group`, `agent`, `default`. */
  readonly policyFrom: string | null;
}

export default defineSpec<LimitResult>({
  name: "limit",
  summary:
    "Show a session's usage limit, pending resume and policy; resume now, cancel it, or set the policy",
  args: [
    { ...TARGET_ARG, required: false },
    { name: "group", type: "string", meta: "GROUP", help: "with --policy: set GROUP's policy" },
    { name: "resume", type: "bool", help: "resume now (after the reset, re-checked)" },
    { name: "cancel", type: "bool", help: "do not resume this limit" },
    {
      name: "policy",
      type: "string",
      meta: "P",
      help: "off, ask, auto, or default (the next level's): the session's, or --group's",
    },
  ],
  format(r) {
    if (r.id === null) return `group ${r.group}: resume policy ${r.policy ?? "not set"}`;
    const at = r.resetsAt === null
      ? "no limit shown"
      : `resets ${formatReset(Date.parse(r.resetsAt), Date.now())}`;
    const from = r.policyFrom === "group" ? `group ${r.group}` : r.policyFrom;
    return `${r.id}: ${at}; resume ${r.phase}${r.reason ? ` (${r.reason})` : ""}; policy ${
      r.policy ?? "off"
    } (${from ?? "default"})`;
  },
});
