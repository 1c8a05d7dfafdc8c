/** `wait`'s body; its spec (and what it does) is ../specs/wait.ts. */

import { UserError } from "../../errors.ts";
import { AGENT_STATES, isAgentState } from "../../model/agent.ts";
import { defineVerb, flag, num, str } from "../verb.ts";
import { resolveTargets } from "../targets.ts";
import { waitForState } from "../wait.ts";
import spec, { DEFAULT_WAIT_SECONDS } from "../specs/wait.ts";

export default defineVerb(spec, async ({ host, signal }, args) => {
  const state = str(args, "state")!;
  if (!isAgentState(state)) {
    throw new UserError(`Unknown state: ${state} (expected ${AGENT_STATES.join(", ")})`);
  }
  const group = str(args, "group");
  if (flag(args, "all") && group === undefined) throw new UserError("--all needs --group");
  const sessions = resolveTargets(host.sessions, { target: str(args, "target"), group });
  const result = await waitForState(host, sessions, {
    state,
    all: flag(args, "all"),
    timeoutMs: (num(args, "timeout") ?? DEFAULT_WAIT_SECONDS) * 1000,
    signal,
    group,
  });
  return { ...result, group: group ?? null };
});
