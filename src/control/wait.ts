/**
 * `ctl wait` (C2–C3): resolves when a session — or the first member of a
 * group, or with `all` every member — reaches an agent state, instead of an
 * orchestrator polling `ctl list`. A member counts as having reached the
 * state once it was in it at any moment of the wait (latched), so a fast
 * agent that moves on is not missed. Fails on timeout, and when the target
 * (any member with `all`, every member without) exits or is removed before
 * reaching the state. Driven by state and exit events, never by polling.
 */

import { UserError } from "../errors.ts";
import type { AgentStateName } from "../model/agent.ts";
import { changedId } from "../model/runtime.ts";
import type { Session } from "../session/session.ts";
import type { ControlHost } from "./host.ts";
import { label } from "./entry.ts";

export interface WaitOptions {
  readonly state: AgentStateName;
  readonly all: boolean;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** Group name for messages, when waiting on a group. */
  readonly group?: string | undefined;
}

export interface WaitMember {
  readonly id: string;
  readonly name: string;
  /** Current agent state, or null. */
  readonly state: AgentStateName | null;
  readonly reached: boolean;
  readonly exited: boolean;
}

export interface WaitResult {
  readonly state: AgentStateName;
  /** The member that released an any-wait (the first to reach), or null for `all`. */
  readonly first: string | null;
  readonly members: readonly WaitMember[];
}

/** After an exit, how long a final state (done/error survive exit) may take to arrive. */
const EXIT_GRACE_MS = 250;

export function waitForState(
  host: ControlHost,
  sessions: readonly Session[],
  options: WaitOptions,
): Promise<WaitResult> {
  const wanted = options.state;
  const ids = new Set(sessions.map((s) => s.id));
  const reached = new Set<string>();
  let first: string | null = null;
  const current = (s: Session) => host.view(s.id)?.agentStatus?.state ?? null;
  const gone = (s: Session) => s.status === "exited" || host.sessions.get(s.id) !== s;

  return new Promise<WaitResult>((resolve, reject) => {
    const subs: Disposable[] = [];
    let grace: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    const members = (): WaitMember[] =>
      sessions.map((s) => ({
        id: s.id,
        name: s.name,
        state: current(s),
        reached: reached.has(s.id),
        exited: gone(s),
      }));
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      options.signal.removeEventListener("abort", onAbort);
      for (const sub of subs) sub[Symbol.dispose]();
      if (error) reject(error);
      else resolve({ state: wanted, first: options.all ? null : first, members: members() });
    };
    const lost = () => {
      const missing = sessions.filter((s) => gone(s) && !reached.has(s.id));
      return options.all ? missing : missing.length === sessions.length ? missing : [];
    };
    const check = () => {
      for (const s of sessions) {
        if (current(s) === wanted && !reached.has(s.id)) {
          reached.add(s.id);
          first ??= s.id;
        }
      }
      const done = options.all ? reached.size === sessions.length : reached.size > 0;
      if (done) return finish(null);
      if (lost().length > 0 && grace === undefined) {
        grace = setTimeout(() => {
          grace = undefined;
          check();
          const missing = lost();
          if (!settled && missing.length > 0) finish(exitError(missing, wanted, options));
        }, EXIT_GRACE_MS);
      }
    };
    const timer = setTimeout(
      () => finish(timeoutError(sessions, members(), options)),
      options.timeoutMs,
    );
    // Aborted when lazyshell closes, or when the asking client went away (then nobody reads this).
    const onAbort = () => finish(new UserError("lazyshell is shutting down"));
    options.signal.addEventListener("abort", onAbort);
    // The runtime's change stream: state moves, exits and removals of the members.
    subs.push(host.subscribe((change) => {
      const id = changedId(change);
      if (id === null || !ids.has(id)) return;
      if (change.type === "updated") {
        const status = change.session.agentStatus;
        if (status?.state === wanted && status !== change.previous.agentStatus) {
          if (!reached.has(id)) {
            reached.add(id);
            first ??= id;
          }
        }
      }
      check();
    }));
    check();
  });
}

function exitError(missing: readonly Session[], wanted: string, options: WaitOptions): UserError {
  if (options.group !== undefined && !options.all) {
    return new UserError(
      `Every session of group ${options.group} exited before reaching ${wanted}`,
    );
  }
  return new UserError(`${label(missing[0]!)} exited before reaching ${wanted}`);
}

function timeoutError(
  sessions: readonly Session[],
  members: readonly WaitMember[],
  options: WaitOptions,
): UserError {
  const seconds = Math.round(options.timeoutMs / 100) / 10;
  const now = members.map((m) => `${m.id}: ${m.state ?? "no agent state"}`).join(", ");
  const what = options.group !== undefined
    ? `${options.all ? "every session" : "a session"} of group ${options.group}`
    : label(sessions[0]!);
  return new UserError(
    `Timed out after ${seconds} s waiting for ${what} to be ${options.state} (${now})`,
  );
}
