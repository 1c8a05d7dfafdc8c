/**
 * Which resume policy applies to a session at a usage limit (docs/limits.md,
 * "Policy per session and per group"): the session's own, else its group's,
 * else its agent's `agents.<id>.resume_after_limit`, else `off`. The session's
 * and the group's are set from the TUI (`P`) and `ctl limit --policy`; they are
 * kept in the state file and come back with `lazyshell restore`. Pure.
 */

import { RESUME_POLICIES, type ResumePolicy } from "./resume.ts";

/** Where the policy in force comes from. */
export type PolicyFrom = "session" | "group" | "agent" | "default";

export interface PolicyInForce {
  readonly policy: ResumePolicy;
  readonly from: PolicyFrom;
}

/** Precedence: session > group > agent > `off`. */
export function policyInForce(
  session: ResumePolicy | null,
  group: ResumePolicy | null,
  agent: ResumePolicy | null,
): PolicyInForce {
  if (session !== null) return { policy: session, from: "session" };
  if (group !== null) return { policy: group, from: "group" };
  if (agent !== null) return { policy: agent, from: "agent" };
  return { policy: "off", from: "default" };
}

/**
 * A policy as typed (`off`, `ask`, `auto`; `default` clears the setting: the next
 * level applies), or an error line.
 */
export function parsePolicy(text: string): ResumePolicy | null | { error: string } {
  const t = text.trim().toLowerCase();
  if (t === "default") return null;
  if ((RESUME_POLICIES as readonly string[]).includes(t)) return t as ResumePolicy;
  return { error: `Unknown resume policy ${JSON.stringify(text)}: off, ask, auto or default` };
}

/** `auto (group dev)`, `off (default)`: the policy and where it comes from. */
export function describePolicy(p: PolicyInForce, group: string | null): string {
  const from = p.from === "group" && group !== null ? `group ${group}` : p.from;
  return `${p.policy} (${from})`;
}

/** The session and group settings: plain maps, no I/O. */
export class ResumePolicies {
  readonly #sessions = new Map<string, ResumePolicy>();
  readonly #groups = new Map<string, ResumePolicy>();

  session(id: string): ResumePolicy | null {
    return this.#sessions.get(id) ?? null;
  }

  group(name: string | null): ResumePolicy | null {
    return name === null ? null : this.#groups.get(name) ?? null;
  }

  /** Sets (null: clears) a session's own; true when it changed. */
  setSession(id: string, policy: ResumePolicy | null): boolean {
    return set(this.#sessions, id, policy);
  }

  /** Sets (null: clears) a group's; true when it changed. */
  setGroup(name: string, policy: ResumePolicy | null): boolean {
    return set(this.#groups, name, policy);
  }

  forget(id: string): void {
    this.#sessions.delete(id);
  }
}

function set(map: Map<string, ResumePolicy>, key: string, policy: ResumePolicy | null): boolean {
  if ((map.get(key) ?? null) === policy) return false;
  if (policy === null) map.delete(key);
  else map.set(key, policy);
  return true;
}
