/**
 * `read TARGET [--tail N]`: the session's text, escapes removed (C2). The
 * visible screen by default; `--tail N` the last N lines of scrollback and
 * screen, at most TAIL_MAX_BYTES of it (session/tail.ts) (oldest lines dropped first,
 * `truncated: true`). Returns secrets verbatim: nothing is masked
 * (docs/control-api.md).
 */

import { defineSpec, TARGET_ARG } from "../spec.ts";

export interface ReadResult {
  readonly id: string;
  readonly name: string;
  readonly lines: string[];
  readonly truncated: boolean;
}

export default defineSpec<ReadResult>({
  name: "read",
  summary: "Print a session's screen (or its last N lines) as plain text",
  args: [
    TARGET_ARG,
    { name: "tail", type: "int", meta: "N", help: "the last N lines of scrollback and screen" },
  ],
  format({ lines }) {
    return lines.join("\n");
  },
});
