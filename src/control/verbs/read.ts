/**
 * `read TARGET [--tail N]`: the session's text, escapes removed (C2). The
 * visible screen by default; `--tail N` the last N lines of scrollback and
 * screen, at most TAIL_MAX_BYTES of it (session/tail.ts) (oldest lines dropped first,
 * `truncated: true`). Returns secrets verbatim: nothing is masked
 * (docs/control-api.md).
 */

import { defineVerb, num, str, TARGET_ARG } from "../verb.ts";
import { resolveTarget } from "../targets.ts";
import { Gate } from "../../util/gate.ts";

/**
 * Tail replies built or being written at once (each up to TAIL_MAX_BYTES);
 * the others wait their turn, so 100 concurrent reads hold a few replies in
 * memory, not 100 (docs/control-api.md "Limits"). A reply not written within 2 s (a client
 * that does not read) gives its place up anyway.
 */
const TAILS = new Gate(2, 2000);

export default defineVerb({
  name: "read",
  summary: "Print a session's screen (or its last N lines) as plain text",
  args: [
    TARGET_ARG,
    { name: "tail", type: "int", meta: "N", help: "the last N lines of scrollback and screen" },
  ],
  async run(
    { host, replied },
    args,
  ): Promise<{ id: string; name: string; lines: string[]; truncated: boolean }> {
    const session = resolveTarget(host.sessions, str(args, "target")!);
    const tail = num(args, "tail");
    if (tail !== undefined) replied.finally(await TAILS.enter());
    const { lines, truncated } = tail === undefined
      ? { lines: trimTrailing(session.visibleLines()), truncated: false }
      : session.tail(tail);
    return { id: session.id, name: session.name, lines, truncated };
  },
  format({ lines }) {
    return lines.join("\n");
  },
});

function trimTrailing(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1] === "") end--;
  return lines.slice(0, end);
}
