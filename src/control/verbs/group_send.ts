/**
 * `group-send GROUP TEXT [--enter]`: types TEXT into every running member
 * (C2–C3). Exited members are skipped; the reply counts what was touched
 * and lists every member's result. An empty or unknown group, or one whose
 * members have all exited, is an error.
 */

import { UserError } from "../../errors.ts";
import { defineVerb, flag, GROUP_ARG, str } from "../verb.ts";
import { inputFull, typeInto } from "../typing.ts";
import { resolveTargets } from "../targets.ts";

export interface MemberResult {
  readonly id: string;
  readonly name: string;
  readonly result: "sent" | "skipped (exited)" | "refused (not reading its input)";
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
  ],
  async run(
    { host },
    args,
  ): Promise<
    { group: string; count: number; skipped: number; refused: number; members: MemberResult[] }
  > {
    const group = str(args, "group")!;
    const members = resolveTargets(host.store, { group });
    const running = members.filter((s) => s.status === "running");
    if (running.length === 0) {
      throw new UserError(`Every session of group ${group} has exited: nothing sent`);
    }
    const refusals = await typeInto(running, str(args, "text")!, flag(args, "enter"));
    if (refusals.length === running.length) throw inputFull(refusals[0]!);
    const refused = new Set(refusals.map((r) => r.session));
    return {
      group,
      count: running.length - refused.size,
      skipped: members.length - running.length,
      refused: refused.size,
      members: members.map((s) => ({
        id: s.id,
        name: s.name,
        result: refused.has(s)
          ? "refused (not reading its input)"
          : s.status === "running" && running.includes(s)
          ? "sent"
          : "skipped (exited)",
      })),
    };
  },
  format(r) {
    const notes = [
      ...(r.skipped ? [`${r.skipped} exited, skipped`] : []),
      ...(r.refused ? [`${r.refused} not reading its input, refused`] : []),
    ];
    const skipped = notes.length ? ` (${notes.join("; ")})` : "";
    return `Sent to ${r.count} session${r.count === 1 ? "" : "s"} of group ${r.group}${skipped}`;
  },
});
