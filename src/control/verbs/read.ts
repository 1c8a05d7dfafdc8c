/** `read TARGET [--tail N]`'s body; its spec is ../specs/read.ts. */

import { defineVerb, num, str } from "../verb.ts";
import { resolveTarget } from "../targets.ts";
import { Gate } from "../../util/gate.ts";
import spec from "../specs/read.ts";

/**
 * Tail replies built or being written at once (each up to TAIL_MAX_BYTES);
 * the others wait their turn, so 100 concurrent reads hold a few replies in
 * memory, not 100 (docs/control-api.md "Limits"). A reply not written within 2 s (a client
 * that does not read) gives its place up anyway.
 */
const TAILS = new Gate(2, 2000);

export default defineVerb(spec, async ({ host, replied }, args) => {
  const session = resolveTarget(host.sessions, str(args, "target")!);
  const tail = num(args, "tail");
  if (tail !== undefined) replied.finally(await TAILS.enter());
  const { lines, truncated } = tail === undefined
    ? { lines: trimTrailing(session.visibleLines()), truncated: false }
    : session.tail(tail);
  return { id: session.id, name: session.name, lines, truncated };
});

function trimTrailing(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1] === "") end--;
  return lines.slice(0, end);
}
