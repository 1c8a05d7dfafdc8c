/**
 * `send TARGET TEXT [--enter] [--if-state S] [--receipt | --no-receipt]
 * [--timeout SEC]`: types TEXT into the session as scripted input (C2): it
 * does not count as the user typing, so a declared done/error stays (D5).
 * `--if-state S` re-classifies the target from a fresh snapshot right
 * before typing and refuses unless it is in state S. With `--enter` into
 * an agent (or with `--receipt`), the reply waits for the agent to take the
 * text (../receipt.ts) and fails when it did not.
 */

import { defineSpec, label, num, TARGET_ARG } from "../spec.ts";
import type { SendReceipt } from "../receipt.ts";

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

export interface SendResult {
  readonly id: string;
  readonly name: string;
  readonly bytes: number;
  readonly state: string | null;
  readonly receipt: SendReceipt | null;
}

export default defineSpec<SendResult>({
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
  format(r) {
    const taken = r.receipt ? `; ${describeReceipt(r.receipt)}` : "";
    return `Sent ${r.bytes} bytes to ${label(r)}${taken}`;
  },
  clientTimeoutMs(args) {
    return ((num(args, "timeout") ?? DEFAULT_RECEIPT_SECONDS) + 15) * 1000;
  },
});

/** "not taken within 10 s: the text is still in its input box" */
export function notTaken(r: SendReceipt, timeoutMs: number): string {
  return `not taken within ${Math.round(timeoutMs / 100) / 10} s: ${r.reason}`;
}

/** "taken in 420 ms (input box emptied, Enter pressed twice)" */
export function describeReceipt(r: SendReceipt): string {
  const by = r.by === "input" ? "input box emptied" : `now ${r.state}`;
  return `taken in ${r.ms} ms (${by}${r.retried ? ", Enter pressed twice" : ""})`;
}
