/** `answer`'s body; its spec (and what it does) is ../specs/answer.ts. */

import { UserError } from "../../errors.ts";
import { defineVerb, flag, num, str } from "../verb.ts";
import { resolveTarget } from "../targets.ts";
import { answerPrompt, type Choice } from "../answer.ts";
import spec, { DEFAULT_ANSWER_SECONDS } from "../specs/answer.ts";

export default defineVerb(spec, ({ host, signal }, args) => {
  const n = num(args, "option");
  const picked = [n !== undefined, flag(args, "approve"), flag(args, "deny")];
  if (picked.filter(Boolean).length !== 1) {
    throw new UserError("answer needs exactly one of --option N, --approve, --deny");
  }
  const choice: Choice = n !== undefined
    ? { type: "option", n }
    : flag(args, "approve")
    ? { type: "approve" }
    : { type: "deny" };
  const session = resolveTarget(host.sessions, str(args, "target")!);
  return answerPrompt(host, session, choice, {
    expect: str(args, "expect"),
    timeoutMs: (num(args, "timeout") ?? DEFAULT_ANSWER_SECONDS) * 1000,
    signal,
  });
});
