/**
 * The TUI's usage-limit keys against the runtime's resume runner (docs/limits.md):
 * `U` resumes the selected session now (after the reset, re-checked), `C` cancels its
 * pending resume, `P` sets the resume policy of the session or its group. Each says
 * what it did in the message line.
 */

import type { Runtime } from "../runtime/runtime.ts";
import type { TuiEffect } from "./core/events.ts";
import { describePolicy } from "../limits/policy.ts";

export type LimitEffect = Extract<
  TuiEffect,
  { type: "resume-limit" | "cancel-limit" | "limit-policy" }
>;

/** Carries out one of the keys; the message line's text. */
export function runLimitEffect(runtime: Runtime, fx: LimitEffect): string {
  const resumes = runtime.resumes;
  switch (fx.type) {
    case "resume-limit": {
      resumes.confirm(fx.id);
      const st = resumes.state(fx.id);
      return st?.phase === "typing"
        ? "Resuming: the screen is checked again before typing"
        : st?.phase === "waiting" || st?.phase === "asked"
        ? "Not reset yet: it resumes at the reset"
        : `Nothing to resume${st?.reason ? ` (${st.reason})` : ""}`;
    }
    case "cancel-limit": {
      const before = resumes.state(fx.id)?.phase ?? "none";
      if (before === "none" || before === "stopped") {
        const reason = resumes.state(fx.id)?.reason;
        return `No pending resume${reason ? ` (${reason})` : ""}`;
      }
      resumes.cancel(fx.id);
      return "Resume cancelled for this limit: nothing will be typed";
    }
    case "limit-policy": {
      const name = runtime.state.sessions.find((s) => s.id === fx.id)?.name ?? fx.id;
      if (fx.group !== null) {
        resumes.setGroupPolicy(fx.group, fx.policy);
        const now = describePolicy(resumes.policy(fx.id), fx.group);
        return `Group ${fx.group}: resume at limits ${fx.policy ?? "default"}; ${name}: ${now}`;
      }
      resumes.setSessionPolicy(fx.id, fx.policy);
      const group = runtime.state.sessions.find((s) => s.id === fx.id)?.group ?? null;
      return `${name}: resume at limits ${describePolicy(resumes.policy(fx.id), group)}`;
    }
  }
}
