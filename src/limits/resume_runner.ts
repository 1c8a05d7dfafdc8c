/**
 * Runs the resume state machine (resume.ts) for every session (docs/limits.md,
 * "Resume at the reset"): feeds it each session's status, the user's keys and
 * the clock, and performs its actions — a notification, or the continue text
 * typed after re-reading the screen. All I/O goes through `ResumeHost`, so the
 * runtime wires it to real sessions and tests to a fake on a virtual clock.
 *
 * The re-check before typing: a fresh classification must still show the same
 * limit (its reset instant and message), the input box must be empty, unreadable,
 * or as it was when the limit came (a placeholder), and the user must not have
 * typed meanwhile. A dialog the
 * manifest names beside the limit (`limit.dialog`) is closed first with its
 * `limit.dismiss` keys, and the screen re-checked again. Every outcome is a
 * receipt: a notification saying what was typed, or why nothing was.
 */

import type { AgentStatus } from "../model/agent.ts";
import type { LimitSpec } from "../detect/manifest.ts";
import { isLimit } from "./limit_text.ts";
import { type PolicyInForce, policyInForce, ResumePolicies } from "./policy.ts";
import {
  fromJson,
  INITIAL,
  limitKey,
  type LimitSeen,
  nextDue,
  type ResumeAction,
  type ResumeEvent,
  type ResumePolicy,
  type ResumeState,
  step,
  toJson,
} from "./resume.ts";

/** Key names a manifest's `limit.dismiss` may use, as bytes. */
const KEYS: Readonly<Record<string, string>> = { esc: "\x1b", enter: "\r", tab: "\t" };

/** After dismiss keys: time for the agent to redraw before the screen is read again. */
export const DISMISS_SETTLE_MS = 400;

export interface ResumeHost {
  now(): number;
  after(ms: number, fn: () => void): Disposable;
  /**
   * The session's agent's settings (`agents.<id>.resume_after_limit`, null when unset;
   * `continue`).
   */
  settings(agent: string | null): { readonly policy: ResumePolicy | null; readonly text: string };
  /** The session's group, or null (its group's policy applies: policy.ts). */
  group?(id: string): string | null;
  /** The agent's manifest's `limit` section, or null. */
  limitSpec(agent: string | null): LimitSpec | null;
  /** The session's screen as text (rows joined with \n), or null when it is gone. */
  screenText(id: string): string | null;
  /** A fresh classification (detection's classifyNow). */
  classifyNow(id: string): AgentStatus | null;
  /** The agent's input box ("" empty), or null when it cannot be read. */
  inputBox(id: string): string | null;
  /** Writes keys as a script (not typing). False: refused. */
  write(id: string, data: string): boolean;
  /** Types a line: the text, a pause, Enter (control/typing.ts). False: refused. */
  typeLine(id: string, text: string): Promise<boolean>;
  /** Tells the user (a notification, the log). */
  notice(id: string, text: string): void;
  /** A machine changed. */
  changed?(): void;
  /** The dismiss keys were written: the failure the agent then shows is this limit's. */
  dismissed?(id: string): void;
  /** A pending resume came back into a restored session: its limit was notified before. */
  restoredLimit?(id: string, limit: LimitSeen): void;
}

interface Entry {
  state: ResumeState;
  agent: string | null;
  name: string;
  timer: Disposable | null;
  busy: boolean;
  /**
   * The input box when the limit came: a placeholder the reader takes for text ("Ask Codex
   * to do anything", live with Codex 0.171.0) is what an untouched box holds.
   */
  box: string | null;
  /**
   * Restored from the state file into a new session (after a server restart): its
   * agent started again, so the limit is not on screen; the agent back at its prompt (idle or
   * done) is the re-check, until the resume is typed.
   */
  restored: boolean;
  /** Resumes typed in this session (the stats tab). */
  resumed: number;
  /** Resumes that typed nothing (the re-check failed, the agent never came back) or did not hold. */
  failed: number;
}

/** A session's resume as the stats tab shows it (docs/limits.md). */
export interface ResumeSummary {
  readonly phase: string;
  readonly reason: string | null;
  readonly policy: ResumePolicy;
  readonly policyFrom: string;
  readonly resumed: number;
  readonly failed: number;
}

export class ResumeRunner implements Disposable {
  readonly #host: ResumeHost;
  readonly #entries = new Map<string, Entry>();
  /** Told after a machine changed (the state file: src/restore/recorder.ts). */
  readonly #listeners = new Set<() => void>();
  /** The policies set per session and per group (policy.ts). */
  readonly policies = new ResumePolicies();

  constructor(host: ResumeHost) {
    this.#host = host;
  }

  /** The session's status changed (from the runtime's change stream). */
  status(id: string, view: { agent: string | null; name: string }, status: AgentStatus | null) {
    const e = this.#entry(id, view);
    if (isLimit(status)) {
      const screen = this.#host.screenText(id) ?? "";
      const spec = this.#host.limitSpec(view.agent);
      const limit: LimitSeen = {
        resetsAt: typeof status!.resetsAt === "number" ? status!.resetsAt : null,
        msg: status!.msg,
        // Its own continue, unless that was cancelled (Claude's Esc): then the policy applies.
        selfContinues: (spec?.continues.some((re) => re.test(screen)) ?? false) &&
          !(spec?.cancelled?.some((re) => re.test(screen)) ?? false),
      };
      const before = e.state.phase;
      this.#send(id, e, { type: "limit", limit });
      if (before !== e.state.phase && e.state.phase === "waiting") e.box = this.#host.inputBox(id);
    } else if (e.state.phase !== "none" && !e.restored) {
      this.#send(id, e, { type: "cleared" });
    }
  }

  /** The user typed in the session. */
  typed(id: string): void {
    const e = this.#entries.get(id);
    if (e) this.#send(id, e, { type: "typed" });
  }

  /** The `ask` key, or `ctl`: resume now (after the reset, under the re-check). */
  confirm(id: string): void {
    const e = this.#entries.get(id);
    if (e) this.#send(id, e, { type: "confirm" });
  }

  /** Stop for this limit. */
  cancel(id: string): void {
    const e = this.#entries.get(id);
    if (e) this.#send(id, e, { type: "cancel" });
  }

  /** The session is gone. */
  forget(id: string): void {
    const e = this.#entries.get(id);
    e?.timer?.[Symbol.dispose]();
    this.#entries.delete(id);
    this.policies.forget(id);
  }

  /** What the stats tab shows of a session's resume; null when it never met a limit. */
  summary(id: string): ResumeSummary | null {
    const e = this.#entries.get(id);
    if (!e || (e.state.phase === "none" && e.resumed === 0 && e.failed === 0)) return null;
    const p = this.policy(id);
    return {
      phase: e.state.phase,
      reason: e.state.reason,
      policy: p.policy,
      policyFrom: p.from,
      resumed: e.resumed,
      failed: e.failed,
    };
  }

  /** The policy in force for a session: its own, its group's, its agent's, `off`. */
  policy(id: string): PolicyInForce {
    const agent = this.#entries.get(id)?.agent ?? null;
    return policyInForce(
      this.policies.session(id),
      this.policies.group(this.#host.group?.(id) ?? null),
      this.#host.settings(agent).policy,
    );
  }

  /** Sets (null: clears) a session's own policy; a limit already due is acted on now. */
  setSessionPolicy(id: string, policy: ResumePolicy | null): void {
    if (!this.policies.setSession(id, policy)) return;
    this.#poke(id);
    for (const fn of this.#listeners) fn();
  }

  /** Sets (null: clears) a group's policy; its sessions' limits already due are acted on now. */
  setGroupPolicy(group: string, policy: ResumePolicy | null): void {
    if (!this.policies.setGroup(group, policy)) return;
    for (const id of this.#entries.keys()) {
      if ((this.#host.group?.(id) ?? null) === group) this.#poke(id);
    }
    for (const fn of this.#listeners) fn();
  }

  /** The machine of a session (tests, `ctl`, the list). */
  state(id: string): ResumeState | null {
    return this.#entries.get(id)?.state ?? null;
  }

  /**
   * The session's pending resume as the state file keeps it (waiting for a reset, asked,
   * being typed), or null: a resume done, stopped or watching has nothing left to do.
   */
  saved(id: string): unknown | null {
    const phase = this.#entries.get(id)?.state.phase;
    if (phase !== "waiting" && phase !== "asked" && phase !== "typing") return null;
    return toJson(this.#entries.get(id)!.state);
  }

  /** Calls `fn` after any machine changed (the state file is written then). */
  onChanged(fn: () => void): Disposable {
    this.#listeners.add(fn);
    return { [Symbol.dispose]: () => this.#listeners.delete(fn) };
  }

  /**
   * Back from the state file into a restored session: re-armed; at the reset the
   * restored agent must be back at its prompt (or show the same limit) before anything is typed.
   */
  restore(id: string, view: { agent: string | null; name: string }, json: unknown): boolean {
    const state = fromJson(json);
    if (state === null || state.phase !== "waiting") return false;
    const e = this.#entry(id, view);
    e.state = state;
    e.restored = true;
    if (state.limit !== null) this.#host.restoredLimit?.(id, state.limit);
    this.#arm(id, e);
    for (const fn of this.#listeners) fn();
    return true;
  }

  [Symbol.dispose](): void {
    for (const e of this.#entries.values()) e.timer?.[Symbol.dispose]();
    this.#entries.clear();
  }

  #entry(id: string, view: { agent: string | null; name: string }): Entry {
    let e = this.#entries.get(id);
    if (!e) {
      e = {
        state: INITIAL,
        agent: view.agent,
        name: view.name,
        timer: null,
        busy: false,
        box: null,
        restored: false,
        resumed: 0,
        failed: 0,
      };
      this.#entries.set(id, e);
    }
    if (view.agent !== null) e.agent = view.agent;
    e.name = view.name;
    return e;
  }

  /** The agents' settings may have changed (a reload): every limit is looked at again. */
  reconsider(): void {
    for (const id of [...this.#entries.keys()]) this.#poke(id);
  }

  /** The policy changed: a limit past its time is acted on now (or not, for `off`). */
  #poke(id: string): void {
    const e = this.#entries.get(id);
    if (e) this.#send(id, e, { type: "tick" });
  }

  #send(id: string, e: Entry, event: ResumeEvent): void {
    const { policy } = this.policy(id);
    const r = step(e.state, event, this.#host.now(), policy);
    const changed = r.state !== e.state;
    if (event.type === "typed-continue" && r.state.phase === "resumed") e.resumed++;
    // Typed nothing, or typed and the very limit stayed: a resume that failed.
    const gaveUp = r.state.phase === "stopped" &&
      (e.state.phase === "typing" || e.state.phase === "resumed");
    if (r.state.failures > e.state.failures || gaveUp) e.failed++;
    e.state = r.state;
    if (r.action) this.#act(id, e, r.action);
    this.#arm(id, e);
    if (changed) {
      this.#host.changed?.();
      for (const fn of this.#listeners) fn();
    }
  }

  #arm(id: string, e: Entry): void {
    e.timer?.[Symbol.dispose]();
    e.timer = null;
    const due = nextDue(e.state, this.policy(id).policy);
    if (due === null) return;
    e.timer = this.#host.after(Math.max(0, due - this.#host.now()), () => {
      e.timer = null;
      if (this.#entries.get(id) === e) this.#send(id, e, { type: "tick" });
    });
  }

  #act(id: string, e: Entry, action: ResumeAction): void {
    if (action.type === "notice") return this.#host.notice(id, `${e.name}: ${action.text}`);
    if (action.type === "ask") {
      return this.#host.notice(
        id,
        `${e.name}: limit reset · resume: lazyshell ctl limit ${id} --resume`,
      );
    }
    if (e.busy) return;
    e.busy = true;
    this.#resume(id, e, action.limitKey).catch((error) => {
      this.#send(id, e, { type: "recheck-failed", why: `error: ${String(error)}` });
    }).finally(() => (e.busy = false));
  }

  /** The re-check, the dialog, the typing; its outcome goes back into the machine. */
  async #resume(id: string, e: Entry, key: string): Promise<void> {
    const fail = (why: string) => {
      this.#send(id, e, { type: "recheck-failed", why });
      this.#host.notice(id, `${e.name}: limit reset, nothing typed: ${why}`);
    };
    const typedAt = e.state.typedAt;
    const still = (): string | null => {
      const status = this.#host.classifyNow(id);
      if (e.restored && !isLimit(status)) {
        // The agent started again: it must be back at its prompt.
        if (e.state.typedAt !== typedAt) return "you typed in the session";
        return status?.state === "idle" || status?.state === "done" ? null : "not-ready";
      }
      if (!isLimit(status)) return "the limit is no longer shown";
      const seen = limitKey({
        resetsAt: typeof status!.resetsAt === "number" ? status!.resetsAt : null,
        msg: status!.msg,
        selfContinues: false,
      });
      if (seen !== key) return "another limit is shown";
      if (e.state.typedAt !== typedAt) return "you typed in the session";
      return null;
    };
    let why = still();
    if (why === "not-ready") return this.#send(id, e, { type: "not-ready" });
    if (why !== null) return fail(why);
    const spec = this.#host.limitSpec(e.agent);
    const screen = this.#host.screenText(id) ?? "";
    if (spec && spec.dialog.some((re) => re.test(screen))) {
      if (spec.dismiss.length === 0) return fail("a dialog is open beside the limit");
      for (const k of spec.dismiss) {
        if (!this.#host.write(id, KEYS[k] ?? k)) return fail("the session refused input");
      }
      this.#host.dismissed?.(id);
      await new Promise<void>((resolve) => this.#host.after(DISMISS_SETTLE_MS, resolve));
      const after = this.#host.screenText(id) ?? "";
      if (spec.dialog.some((re) => re.test(after))) return fail("the dialog did not close");
      // Closing the dialog may have changed the status: re-check against the same limit only
      // if the agent still shows it (Codex keeps the limit line above its composer).
      why = still();
      if (why !== null && why !== "the limit is no longer shown") return fail(why);
    }
    const box = this.#host.inputBox(id);
    // A restored agent's box was never seen empty: your keys (typedAt) are the check there.
    if (!e.restored && box !== null && box.trim() !== "" && box !== e.box) {
      return fail("the input box holds text");
    }
    const { text } = this.#host.settings(e.agent);
    if (!(await this.#host.typeLine(id, text))) return fail("the session refused input");
    e.restored = false;
    this.#send(id, e, { type: "typed-continue" });
    this.#host.notice(id, `${e.name}: limit reset, typed ${JSON.stringify(text)}`);
  }
}
