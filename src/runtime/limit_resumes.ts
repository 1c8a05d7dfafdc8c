/**
 * Wires the resume runner (src/limits/resume_runner.ts) into the runtime (docs/limits.md):
 * each session's status from the change stream, the user's keys from the
 * sessions, the settings from config.yml (`agents.<id>.resume_after_limit`,
 * `continue`), the manifest's `limit` section, and typing as `ctl send` types
 * (control/typing.ts: the text, a pause, Enter). Receipts are notifications.
 */

import type { AgentStatus } from "../model/agent.ts";
import type { RuntimeChange, RuntimeState } from "../model/runtime.ts";
import type { SessionView } from "../model/session.ts";
import type { SessionStore } from "../session/store.ts";
import type { Config } from "../config/config.ts";
import type { Catalog } from "./catalog.ts";
import type { Notifier } from "../notify/notifier.ts";
import type { Scheduler } from "../util/ticker.ts";
import { typeInto } from "../control/typing.ts";
import { limitEpisodeKey } from "../notify/episodes.ts";
import { ResumeRunner } from "../limits/resume_runner.ts";
import type { ResumePolicy } from "../limits/resume.ts";

export interface ResumesHost {
  readonly store: SessionStore;
  readonly config: Config;
  readonly catalog: Catalog;
  readonly state: RuntimeState;
  subscribe(listener: (change: RuntimeChange) => void): Disposable;
  /** After `lazyshell reload`: an agent's `resume_after_limit` may have changed. */
  onReconfigure(listener: () => void): Disposable;
  classifyNow(id: string): AgentStatus | null;
  inputBox(id: string): string | null;
}

export function startResumes(
  runtime: ResumesHost,
  notifier: Notifier,
  scheduler: Scheduler,
  now: () => number,
): { runner: ResumeRunner; dispose: () => void } {
  const owner = { name: "limit resumes" };
  const runner = new ResumeRunner({
    now,
    after: (ms, fn) => scheduler.after(ms, fn, owner),
    settings: (agent) => {
      const agents = runtime.config.agents as Record<
        string,
        { resume_after_limit?: ResumePolicy; continue?: string } | undefined
      >;
      const a = agent === null ? undefined : agents[agent];
      return { policy: a?.resume_after_limit ?? null, text: a?.continue ?? "continue" };
    },
    group: (id) => runtime.state.sessions.find((s) => s.id === id)?.group ?? null,
    limitSpec: (agent) => (agent === null ? null : runtime.catalog.get(agent)?.limit) ?? null,
    screenText: (id) => {
      const view = runtime.store.get(id)?.screenView();
      if (!view) return null;
      const rows: string[] = [];
      for (let y = 0; y < view.rows; y++) rows.push(view.line(y));
      return rows.join("\n");
    },
    classifyNow: (id) => runtime.classifyNow(id),
    inputBox: (id) => runtime.inputBox(id),
    write: (id, data) => runtime.store.get(id)?.write(data, false) ?? false,
    typeLine: async (id, text) => {
      const session = runtime.store.get(id);
      if (!session || session.status === "exited") return false;
      return (await typeInto([session], text, true)).length === 0;
    },
    // One notification per limit episode (src/notify/episodes.ts): the limit a restored
    // agent shows again, the failure left by the dismiss keys, are the same episode.
    dismissed: (id) => notifier.limitDismissed(id),
    restoredLimit: (id, limit) =>
      notifier.continueLimit(id, limitEpisodeKey(limit.resetsAt, limit.msg)),
    notice: (id, text) => {
      const name = runtime.state.sessions.find((s) => s.id === id)?.name ?? id;
      notifier.notify({
        sessionId: id,
        sessionName: name,
        reason: "error",
        key: "limit-resume",
        minIntervalMs: 0,
        text,
      });
    },
  });
  const subs = [
    runtime.subscribe((change) => {
      if (change.type === "removed") return runner.forget(change.previous.id);
      if (change.type !== "added" && change.type !== "updated") return;
      const s: SessionView = change.session;
      const before = change.type === "updated" ? change.previous.agentStatus : null;
      if (s.agentStatus === before && change.type === "updated") return;
      runner.status(
        s.id,
        { agent: s.agent, name: s.name },
        s.status === "exited" ? null : s.agentStatus,
      );
    }),
    runtime.onReconfigure(() => runner.reconsider()),
    runtime.store.on((e) => {
      if (e.type === "session" && e.event.type === "input" && e.event.typed) {
        runner.typed(e.session.id);
      }
    }),
  ];
  return {
    runner,
    dispose: () => {
      for (const s of subs) s[Symbol.dispose]();
      runner[Symbol.dispose]();
    },
  };
}
