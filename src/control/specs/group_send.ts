/**
 * `group-send GROUP TEXT [--enter] [--receipt | --no-receipt] [--timeout
 * SEC]`: types TEXT into every running member (C2–C3). Exited members are
 * skipped; the reply counts what was touched and lists every member's
 * result, with `--enter` each agent member's receipt (../receipt.ts): a
 * member that did not take the text is listed as such, the others still
 * count; so is one not reading its input (refused, nothing sent). An empty
 * or unknown group, one whose members have all exited, or all refused, is
 * an error.
 */

import { defineSpec, GROUP_ARG, num } from "../spec.ts";
import type { SendReceipt } from "../receipt.ts";
import { DEFAULT_RECEIPT_SECONDS, notTaken, RECEIPT_ARGS } from "./send.ts";

export interface MemberResult {
  readonly id: string;
  readonly name: string;
  readonly result: "sent" | "skipped (exited)" | "refused (not reading its input)" | "not taken";
  /** With --enter into an agent: did it take the text (null: no receipt). */
  readonly receipt: SendReceipt | null;
}

export interface GroupSendResult {
  readonly group: string;
  readonly count: number;
  readonly skipped: number;
  readonly refused: number;
  readonly notTaken: number;
  readonly members: MemberResult[];
}

export default defineSpec<GroupSendResult>({
  name: "group-send",
  summary: "Type text into every running session of a group",
  args: [
    GROUP_ARG,
    {
      name: "text",
      type: "string",
      positional: true,
      required: true,
      meta: "TEXT",
      help: "text to type",
    },
    { name: "enter", type: "bool", help: "press Enter after the text" },
    ...RECEIPT_ARGS,
  ],
  format(r) {
    const notes = [
      ...(r.skipped ? [`${r.skipped} exited, skipped`] : []),
      ...(r.refused ? [`${r.refused} not reading its input, refused`] : []),
    ];
    const skipped = notes.length ? ` (${notes.join("; ")})` : "";
    const lines = [
      `Sent to ${r.count} session${r.count === 1 ? "" : "s"} of group ${r.group}${skipped}`,
    ];
    for (const m of r.members) {
      if (m.result === "not taken" && m.receipt) {
        lines.push(`  ${m.id} (${m.name}): ${notTaken(m.receipt, m.receipt.ms)}`);
      }
    }
    return lines.join("\n");
  },
  clientTimeoutMs(args) {
    return ((num(args, "timeout") ?? DEFAULT_RECEIPT_SECONDS) + 15) * 1000;
  },
});
