/**
 * `wait TARGET --state S [--timeout SEC]` and `wait --group G --state S
 * [--all]` (C2–C3): blocks until the session (the first member, or with
 * --all every member) reaches agent state S. Already in S: returns at
 * once. Timeout (default 120 s), unknown session/group/state, and exit
 * before the state are failures. See ../wait.ts for the semantics.
 */

import { AGENT_STATES } from "../../model/agent.ts";
import { defineSpec, num } from "../spec.ts";
import type { WaitResult } from "../wait.ts";

export const DEFAULT_WAIT_SECONDS = 120;
/**
 * A week. Timers hold at most 2^31-1 ms (24.8 days): beyond, setTimeout
 * fires at once and a wait would "time out" immediately. Wait again for longer.
 */
export const MAX_WAIT_SECONDS = 7 * 24 * 3600;

export type WaitVerbResult = WaitResult & { group: string | null };

export default defineSpec<WaitVerbResult>({
  name: "wait",
  summary: "Wait until a session (or a group) reaches an agent state",
  args: [
    {
      name: "target",
      type: "string",
      positional: true,
      meta: "TARGET",
      help: "session id or exact name",
    },
    {
      name: "group",
      type: "string",
      meta: "G",
      help: "wait on group G instead (first member to reach S)",
    },
    { name: "state", type: "string", required: true, meta: "S", help: AGENT_STATES.join(" | ") },
    {
      name: "timeout",
      type: "number",
      meta: "SEC",
      max: MAX_WAIT_SECONDS,
      help:
        `give up after SEC seconds (default ${DEFAULT_WAIT_SECONDS}, at most ${MAX_WAIT_SECONDS})`,
    },
    { name: "all", type: "bool", help: "with --group: every member must reach S" },
  ],
  format(r) {
    if (r.group === null) return `${r.members[0]!.id} is ${r.state}`;
    if (r.first === null) return `Every session of group ${r.group} reached ${r.state}`;
    return `${r.first} of group ${r.group} is ${r.state}`;
  },
  clientTimeoutMs(args) {
    return ((num(args, "timeout") ?? DEFAULT_WAIT_SECONDS) + 15) * 1000;
  },
});
