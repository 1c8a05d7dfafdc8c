/** `limit TARGET`'s body; its spec (and what it does) is ../specs/limit.ts. */

import { UserError } from "../../errors.ts";
import { defineVerb, flag, str } from "../verb.ts";
import { resolveTarget } from "../targets.ts";
import { resetsAtOf } from "../../limits/limit_text.ts";
import spec from "../specs/limit.ts";

export default defineVerb(spec, ({ host }, args) => {
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
});
