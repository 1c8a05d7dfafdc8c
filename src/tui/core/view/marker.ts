/**
 * The state marker of one session (README: Using the TUI): `·` idle, `…` working (a
 * spinner unless reduce_motion), `‼` blocked, `✓` done (bright until the
 * user views the session, dim after: the state is still `done`, as `ctl list`
 * says, until the next input), `✗` error, `●` output in a plain session since
 * the user last looked, a dim "no status" mark for an agent without rules.
 */

import { isLimit, LIMIT_MARKER } from "../../../limits/limit_text.ts";
import { ACTIVITY_MARKER, STATE_MARKERS } from "../../../model/agent.ts";
import type { TuiState } from "../../../model/tui.ts";
import type { SessionView } from "../../../model/session.ts";
import type { Style } from "../frame.ts";
import { theme } from "./theme.ts";

export const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"] as const;
export const NO_STATUS_MARKER = "◌";
export const EXITED_MARKER = "×";

export interface Marker {
  readonly text: string;
  readonly style: Style;
  /** Why, in words, for the second line and the help. */
  readonly label: string;
}

export function markerOf(
  row: SessionView,
  state: Pick<TuiState, "unseenDone" | "activity" | "spin" | "reduceMotion">,
): Marker {
  if (row.status === "exited") return { text: EXITED_MARKER, style: theme.dim, label: "exited" };
  const s = row.agentStatus?.state;
  if (s === "blocked") {
    return { text: STATE_MARKERS.blocked, style: theme.blocked, label: "blocked" };
  }
  if (s === "working") {
    const text = state.reduceMotion ? STATE_MARKERS.working : SPINNER[state.spin % SPINNER.length]!;
    return { text, style: theme.working, label: "working" };
  }
  if (s === "error" && isLimit(row.agentStatus)) {
    return { text: LIMIT_MARKER, style: theme.error, label: "limit" };
  }
  if (s === "error") return { text: STATE_MARKERS.error, style: theme.error, label: "error" };
  if (state.unseenDone[row.id]) {
    return { text: STATE_MARKERS.done, style: theme.done, label: "done" };
  }
  // Seen: still done (the agent's state, which ctl list and ctl wait read), only no longer news.
  if (s === "done") return { text: STATE_MARKERS.done, style: theme.dim, label: "done" };
  if (s === "idle") {
    return { text: STATE_MARKERS.idle, style: theme.dim, label: "idle" };
  }
  if (row.agent !== null) {
    return row.hasRules
      ? { text: STATE_MARKERS.idle, style: theme.dim, label: "idle" }
      : { text: NO_STATUS_MARKER, style: theme.noStatus, label: "no status" };
  }
  if (state.activity[row.id]) {
    return { text: ACTIVITY_MARKER, style: theme.activity, label: "output" };
  }
  return { text: " ", style: theme.text, label: "" };
}

/** True when some marker moves: the animation clock must run (T3). */
export function anythingSpins(state: Pick<TuiState, "sessions">): boolean {
  return state.sessions.some((r) => r.status === "running" && r.agentStatus?.state === "working");
}
