/**
 * `read TARGET [--tail N]`: the session's text, escapes removed (C2). The
 * visible screen by default; `--tail N` the last N lines of scrollback and
 * screen. Returns secrets verbatim: nothing is masked (docs/control-api.md).
 */

import { defineVerb, num, str, TARGET_ARG } from "../verb.ts";
import { resolveTarget } from "../targets.ts";

export default defineVerb({
  name: "read",
  summary: "Print a session's screen (or its last N lines) as plain text",
  args: [
    TARGET_ARG,
    { name: "tail", type: "int", meta: "N", help: "the last N lines of scrollback and screen" },
  ],
  run({ host }, args): { id: string; name: string; lines: string[] } {
    const session = resolveTarget(host.store, str(args, "target")!);
    const tail = num(args, "tail");
    const lines = tail === undefined ? trimTrailing(session.visibleLines()) : session.tail(tail);
    return { id: session.id, name: session.name, lines };
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
