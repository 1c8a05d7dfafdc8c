/**
 * `limit TARGET [--resume | --cancel]` (docs/limits.md): a session's usage limit and its
 * pending resume; `--resume` resumes now (the `ask` answer: after the reset, under the same
 * re-check as `auto`), `--cancel` stops it for this limit.
 */

import { UserError } from "../../errors.ts";
import { defineVerb, flag, str, TARGET_ARG } from "../verb.ts";
import { resolveTarget } from "../targets.ts";
import { resetsAtOf } from "../../limits/limit_text.ts";
import { formatReset } from "../../limits/reset_time.ts";

export default defineVerb({
  name: "limit",
  summary: "Show a session's usage limit and pending resume; resume now or cancel it",
  args: [
    TARGET_ARG,
    { name: "resume", type: "bool", help: "resume now (after the reset, re-checked)" },
    { name: "cancel", type: "bool", help: "do not resume this limit" },
  ],
  run({ host }, args): {
    id: string;
    resetsAt: string | null;
    phase: string;
    reason: string | null;
  } {
    const session = resolveTarget(host.sessions, str(args, "target")!);
    if (flag(args, "resume") && flag(args, "cancel")) {
      throw new UserError("Give --resume or --cancel, not both");
    }
    const resumes = host.resumes;
    if (!resumes) throw new UserError("Resuming at usage limits is not available here");
    if (flag(args, "resume")) resumes.confirm(session.id);
    if (flag(args, "cancel")) resumes.cancel(session.id);
    const at = resetsAtOf(host.view(session.id)?.agentStatus);
    const state = resumes.state(session.id);
    return {
      id: session.id,
      resetsAt: at === null ? null : new Date(at).toISOString(),
      phase: state?.phase ?? "none",
      reason: state?.reason ?? null,
    };
  },
  format(r) {
    const at = r.resetsAt === null
      ? "no limit shown"
      : `resets ${formatReset(Date.parse(r.resetsAt), Date.now())}`;
    return `${r.id}: ${at}; resume ${r.phase}${r.reason ? ` (${r.reason})` : ""}`;
  },
});
