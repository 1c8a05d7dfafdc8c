/**
 * `send TARGET TEXT [--enter] [--if-state S]`: types TEXT into the session
 * as scripted input (C2): it does not count as the user typing, so a
 * declared done/error stays (D5). `--if-state S` re-classifies the target
 * from a fresh snapshot right before typing and refuses unless it is in
 * state S — safe answering of prompts by an orchestrator.
 */

import { UserError } from "../../errors.ts";
import { isAgentState } from "../../model/agent.ts";
import { defineVerb, flag, str, TARGET_ARG } from "../verb.ts";
import { label } from "../entry.ts";
import { resolveTarget } from "../targets.ts";
import { inputFull, typeInto } from "../typing.ts";

export default defineVerb({
  name: "send",
  summary: "Type text into a session, as if typed",
  args: [
    TARGET_ARG,
    {
      name: "text",
      type: "string",
      positional: true,
      required: true,
      meta: "TEXT",
      help: "text to type",
    },
    { name: "enter", type: "bool", help: "press Enter after the text" },
    {
      name: "ifState",
      type: "string",
      meta: "S",
      help: "only if the session is in agent state S right now",
    },
  ],
  async run(
    { host },
    args,
  ): Promise<{ id: string; name: string; bytes: number; state: string | null }> {
    const session = resolveTarget(host.store, str(args, "target")!);
    if (session.status === "exited") throw new UserError(`${label(session)} has exited`);
    const ifState = str(args, "ifState");
    let state: string | null = null;
    if (ifState !== undefined) {
      if (!isAgentState(ifState)) throw new UserError(`Unknown state: ${ifState}`);
      host.classifyNow(session.id);
      state = host.view(session.id)?.agentStatus?.state ?? null;
      if (state !== ifState) {
        throw new UserError(
          `${label(session)} is ${state ?? "in no agent state"}, not ${ifState}: nothing sent`,
        );
      }
    }
    const text = str(args, "text")!;
    const enter = flag(args, "enter");
    const data = text + (enter ? "\r" : "");
    const [refused] = await typeInto([session], text, enter);
    if (refused) throw inputFull(refused);
    return {
      id: session.id,
      name: session.name,
      bytes: new TextEncoder().encode(data).length,
      state,
    };
  },
  format(r) {
    return `Sent ${r.bytes} bytes to ${label(r)}`;
  },
});
