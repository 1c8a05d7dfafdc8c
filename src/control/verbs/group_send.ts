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

import { UserError } from "../../errors.ts";
import { defineVerb, flag, GROUP_ARG, num, str } from "../verb.ts";
import { inputFull, typeInto } from "../typing.ts";
import { resolveTargets } from "../targets.ts";
import { notTaken, type SendReceipt, type SendWatch, watchSend } from "../receipt.ts";
import { DEFAULT_RECEIPT_SECONDS, RECEIPT_ARGS, receiptWanted } from "./send.ts";

export interface MemberResult {
  readonly id: string;
  readonly name: string;
  readonly result: "sent" | "skipped (exited)" | "refused (not reading its input)" | "not taken";
  /** With --enter into an agent: did it take the text (null: no receipt). */
  readonly receipt: SendReceipt | null;
}

export default defineVerb({
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
  async run(
    { host },
    args,
  ): Promise<
    {
      group: string;
      count: number;
      skipped: number;
      refused: number;
      notTaken: number;
      members: MemberResult[];
    }
  > {
    const group = str(args, "group")!;
    const members = resolveTargets(host.sessions, { group });
    const running = members.filter((s) => s.status === "running");
    if (running.length === 0) {
      throw new UserError(`Every session of group ${group} has exited: nothing sent`);
    }
    const text = str(args, "text")!;
    const enter = flag(args, "enter");
    const timeoutMs = (num(args, "timeout") ?? DEFAULT_RECEIPT_SECONDS) * 1000;
    const watches = new Map<string, SendWatch>();
    for (const s of running) {
      if (receiptWanted(host, s, enter, args, true)) {
        watches.set(s.id, watchSend(host, s, text, timeoutMs));
      }
    }
    const refusals = await typeInto(running, text, enter, async () => {
      await Promise.all([...watches.values()].map((w) => w.beforeEnter()));
    });
    const refused = new Set(refusals.map((r) => r.session.id));
    const receipts = new Map<string, SendReceipt>();
    await Promise.all(
      [...watches].filter(([id]) => !refused.has(id))
        .map(async ([id, w]) => receipts.set(id, await w.receipt())),
    );
    for (const [id, w] of watches) if (refused.has(id)) w[Symbol.dispose]();
    if (refusals.length === running.length) throw inputFull(refusals[0]!);
    const results = members.map((s): MemberResult => {
      const receipt = receipts.get(s.id) ?? null;
      const result = refused.has(s.id)
        ? "refused (not reading its input)"
        : !running.includes(s)
        ? "skipped (exited)"
        : receipt && !receipt.taken
        ? "not taken"
        : "sent";
      return { id: s.id, name: s.name, result, receipt };
    });
    return {
      group,
      count: running.length - refused.size,
      skipped: members.length - running.length,
      refused: refused.size,
      notTaken: results.filter((m) => m.result === "not taken").length,
      members: results,
    };
  },
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
