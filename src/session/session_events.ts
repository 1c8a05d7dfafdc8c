/** Everything a session reports to its owner (the store, then the app). */

import type { TerminalEvent } from "./terminal_events.ts";

export type SessionEvent =
  | TerminalEvent
  /** Output was applied to the screen (coalesce before acting on it). */
  | { readonly type: "output" }
  /** Input was written to the PTY; `typed` is false for `ctl send` (D5). */
  | { readonly type: "input"; readonly data: string; readonly typed: boolean }
  | { readonly type: "resize"; readonly cols: number; readonly rows: number }
  | { readonly type: "exit"; readonly exitCode: number | null; readonly signal: number | null };
