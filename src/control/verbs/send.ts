/**
 * `send TARGET TEXT [--enter] [--if-state S] [--receipt | --no-receipt]
 * [--timeout SEC]`: types TEXT into the session as scripted input (C2): it
 * does not count as the user typing, so a declared done/error stays (D5).
 * `--if-state S` re-classifies the target from a fresh snapshot right
 * before typing and refuses unless it is in state S. With `--enter` into
 * an agent (or with `--receipt`), the reply waits for the agent to take the
 * text (../receipt.ts) and fails when it did not.
 */

import { UserError } from "../../errors.ts";
import { isAgentState } from "../../model/agent.ts";
import { type Args, defineVerb, flag, num, str, TARGET_ARG } from "../verb.ts";
import type { ControlHost } from "../host.ts";
import type { Session } from "../../session/session.ts";
import { label } from "../entry.ts";
import { resolveTarget } from "../targets.ts";
import { inputFull, typeInto } from "../typing.ts";
import { describeReceipt, notTaken, type SendReceipt, watchSend } from "../receipt.ts";

export const DEFAULT_RECEIPT_SECONDS = 10;

/** The receipt options `send` and `group-send` share. */
export const RECEIPT_ARGS = [
  {
    name: "receipt",
    type: "bool",
    help: "wait until the agent took it (the default with --enter into an agent)",
  },
  { name: "noReceipt", type: "bool", help: "return once typed, without a receipt" },
  {
    name: "timeout",
    type: "number",
    meta: "SEC",
    help: `how long the receipt may take (default ${DEFAULT_RECEIPT_SECONDS})`,
  },
] as const;

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
    ...RECEIPT_ARGS,
  ],
  async run(
    { host },
    args,
  ): Promise<
    { id: string; name: string; bytes: number; state: string | null; receipt: SendReceipt | null }
  > {
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
  },
  format(r) {
    const taken = r.receipt ? `; ${describeReceipt(r.receipt)}` : "";
    return `Sent ${r.bytes} bytes to ${label(r)}${taken}`;
  },
  clientTimeoutMs(args) {
    return ((num(args, "timeout") ?? DEFAULT_RECEIPT_SECONDS) + 15) * 1000;
  },
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
