/** `limit TARGET`'s body; its spec (and what it does) is ../specs/limit.ts. */

import { UserError } from "../../errors.ts";
import { defineVerb, flag, str } from "../verb.ts";
import { resolveTarget } from "../targets.ts";
import { resetsAtOf } from "../../limits/limit_text.ts";
import { parsePolicy } from "../../limits/policy.ts";
import type { ResumePolicy } from "../../limits/resume.ts";
import spec from "../specs/limit.ts";

export default defineVerb(spec, ({ host }, args) => {
  const target = str(args, "target");
  const group = str(args, "group");
  const policyText = str(args, "policy");
  if (flag(args, "resume") && flag(args, "cancel")) {
    throw new UserError("Give --resume or --cancel, not both");
  }
  const resumes = host.resumes;
  if (!resumes) throw new UserError("Resuming at usage limits is not available here");
  let policy: ResumePolicy | null | undefined;
  if (policyText !== undefined) {
    const p = parsePolicy(policyText);
    if (p !== null && typeof p === "object") throw new UserError(p.error);
    policy = p;
  }
  if (group !== undefined) {
    if (target !== undefined) throw new UserError("Give a target or --group, not both");
    if (policy === undefined) throw new UserError("--group sets a group's policy: give --policy");
    if (flag(args, "resume") || flag(args, "cancel")) {
      throw new UserError("--resume and --cancel take a session, not --group");
    }
    if (!host.sessions.list().some((s) => s.group === group)) {
      throw new UserError(`No session in group ${group}`);
    }
    resumes.setGroupPolicy(group, policy);
    const set = resumes.policies.group(group);
    return {
      id: null,
      group,
      resetsAt: null,
      phase: "none",
      reason: null,
      policy: set,
      policyFrom: set === null ? null : "group",
    };
  }
  if (target === undefined) throw new UserError("Give a target (session id or name) or --group");
  const session = resolveTarget(host.sessions, target);
  if (policy !== undefined) resumes.setSessionPolicy(session.id, policy);
  if (flag(args, "resume")) resumes.confirm(session.id);
  if (flag(args, "cancel")) resumes.cancel(session.id);
  const view = host.view(session.id);
  const at = resetsAtOf(view?.agentStatus);
  const state = resumes.state(session.id);
  const inForce = resumes.policy(session.id);
  return {
    id: session.id,
    group: view?.group ?? null,
    resetsAt: at === null ? null : new Date(at).toISOString(),
    phase: state?.phase ?? "none",
    reason: state?.reason ?? null,
    policy: inForce.policy,
    policyFrom: inForce.from,
  };
});
