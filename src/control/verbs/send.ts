/** `send`'s body; its spec (and what it does) is ../specs/send.ts. */

import { UserError } from "../../errors.ts";
import { isAgentState } from "../../model/agent.ts";
import { type Args, defineVerb, flag, num, str } from "../verb.ts";
import type { ControlHost } from "../host.ts";
import type { Session } from "../../session/session.ts";
import { label } from "../entry.ts";
import { resolveTarget } from "../targets.ts";
import { inputFull, typeInto } from "../typing.ts";
import { watchSend } from "../receipt.ts";
import spec, { DEFAULT_RECEIPT_SECONDS, notTaken } from "../specs/send.ts";

export default defineVerb(spec, async ({ host }, args) => {
  const session = resolveTarget(host.sessions, str(args, "target")!);
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
  const wants = receiptWanted(host, session, enter, args);
  const timeoutMs = (num(args, "timeout") ?? DEFAULT_RECEIPT_SECONDS) * 1000;
  const watch = wants ? watchSend(host, session, text, timeoutMs) : null;
  const data = text + (enter ? "\r" : "");
  const [refused] = await typeInto([session], text, enter, () => watch?.beforeEnter());
  if (refused) {
    watch?.[Symbol.dispose]();
    throw inputFull(refused);
  }
  const receipt = watch ? await watch.receipt() : null;
  if (receipt && !receipt.taken) {
    throw new UserError(`Sent to ${label(session)}, but ${notTaken(receipt, timeoutMs)}`);
  }
  return {
    id: session.id,
    name: session.name,
    bytes: new TextEncoder().encode(data).length,
    state,
    receipt,
  };
});

/**
 * Whether to wait for a receipt: asked for, or by default when Enter goes
 * into a session with an agent. Refuses (nothing sent) what cannot work.
 */
export function receiptWanted(
  host: ControlHost,
  session: Session,
  enter: boolean,
  args: Args,
  group = false,
): boolean {
  const asked = flag(args, "receipt");
  if (asked && flag(args, "noReceipt")) {
    throw new UserError("--receipt and --no-receipt together: nothing sent");
  }
  if (asked && !enter) throw new UserError("--receipt needs --enter: nothing sent");
  const view = host.view(session.id);
  // What can show the text taken: an agent in the foreground, or a program that declares its own
  // state (OSC 7501). A state left on a plain shell (a hook's done, an agent that exited) cannot:
  // waiting on it was a false "not taken".
  const agent = view !== undefined && (view.agent !== null || view.capable);
  if (asked && !agent && !group) {
    throw new UserError(`${label(session)} runs no agent to take it: nothing sent`);
  }
  return enter && !flag(args, "noReceipt") && agent;
}
