/** `lazyshell ls`: the server's sessions, one a line, as tmux's `ls` prints them. */

import type { RuntimeState } from "../model/runtime.ts";
import { isLimit, limitText } from "../limits/limit_text.ts";

export function sessionList(state: RuntimeState, now = Date.now()): string {
  return state.sessions.map((s) => {
    const status = s.status === "exited"
      ? `exited (${s.signal !== null ? `signal ${s.signal}` : `code ${s.exitCode}`})`
      : "running";
    const st = s.agentStatus;
    const state = st === null
      ? (s.agent === null ? "" : ": no status")
      : `: ${st.state}${st.kind ? ` (${st.kind})` : ""}` +
        (isLimit(st) ? ` ${limitText(st, now).replace(/^limit · /, "")}` : "");
    const agent = s.agent === null && state === "" ? "" : ` ${s.agent ?? "-"}${state}`;
    const group = s.group === null ? "" : ` [${s.group}]`;
    return `${s.id} ${s.name}${group}: ${status}${agent} ${s.cols}x${s.rows} ${s.cwd}\n`;
  }).join("");
}
