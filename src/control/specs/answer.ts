/**
 * `answer TARGET (--option N | --approve | --deny) [--expect TEXT]
 * [--timeout SEC]`: answers what a blocked agent asks (its `prompt` in
 * `list --json`), safely — see ../answer.ts. Exactly one of the choices.
 */

import { defineSpec, label, num, TARGET_ARG } from "../spec.ts";
import type { Answered } from "../answer.ts";

export const DEFAULT_ANSWER_SECONDS = 10;

export default defineSpec<Answered>({
  name: "answer",
  summary: "Answer a blocked agent's prompt, only if it is still the one read",
  args: [
    TARGET_ARG,
    { name: "option", type: "int", meta: "N", help: "choose option N (1 = first on screen)" },
    { name: "approve", type: "bool", help: "choose the option that approves" },
    { name: "deny", type: "bool", help: "choose the option that denies (else cancel, Esc)" },
    {
      name: "expect",
      type: "string",
      meta: "TEXT",
      help: "refuse unless the question or its subject contains TEXT",
    },
    {
      name: "timeout",
      type: "number",
      meta: "SEC",
      help:
        `wait SEC seconds for the agent to leave the prompt (default ${DEFAULT_ANSWER_SECONDS})`,
    },
  ],
  format(r) {
    const what = r.option === null ? "cancel" : `${r.option}. ${r.label}`;
    const now = r.receipt.prompt
      ? `asks ${JSON.stringify(r.receipt.prompt.question)}`
      : r.receipt.state ?? "no agent state";
    return `Answered ${JSON.stringify(r.question)} in ${label(r)} with ${what} ` +
      `(keys ${r.keys.join(" ")}); it left the prompt in ${r.receipt.ms} ms, now ${now}`;
  },
  clientTimeoutMs(args) {
    return ((num(args, "timeout") ?? DEFAULT_ANSWER_SECONDS) + 15) * 1000;
  },
});
