/** `group-send GROUP TEXT`'s body; its spec (and what it does) is ../specs/group_send.ts. */

import { UserError } from "../../errors.ts";
import { defineVerb, flag, num, str } from "../verb.ts";
import { inputFull, typeInto } from "../typing.ts";
import { resolveTargets } from "../targets.ts";
import { type SendReceipt, type SendWatch, watchSend } from "../receipt.ts";
import { receiptWanted } from "./send.ts";
import { DEFAULT_RECEIPT_SECONDS } from "../specs/send.ts";
import spec, { type MemberResult } from "../specs/group_send.ts";

export type { MemberResult } from "../specs/group_send.ts";

export default defineVerb(spec, async ({ host }, args) => {
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
});
