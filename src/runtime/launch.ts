/**
 * New agent sessions (`N` in the TUI, `ctl new --agent ID`): an agent of
 * the catalog started in a folder or in a new git worktree, named after
 * its task, with an optional first prompt typed once it is ready
 * (first_prompt.ts). In a new worktree the configured setup command
 * (`worktrees.setup`) runs first in the session's own PTY, its output on
 * screen; the agent starts only if it succeeds. Must not import the TUI.
 */

import { UserError } from "../errors.ts";
import type { AgentChoice } from "../model/agent.ts";
import { checkSessionName, taskName } from "../model/names.ts";
import type { WorktreeInfo } from "../model/session.ts";
import { detectAgents } from "../plugin/agents.ts";
import type { Session } from "../session/session.ts";
import { which } from "../util/fs.ts";
import { shellQuote } from "../ipc/integrations.ts";
import { addWorktree, repoOf, undoWorktreeAdd } from "../git/worktree_add.ts";
import { branchName, worktreePath } from "../git/branch_name.ts";
import { deliverFirstPrompt, promptHost, type PromptOutcome } from "./first_prompt.ts";
import type { Runtime } from "./runtime.ts";
import type { AgentSpec } from "../control/host.ts";

/** `ctl new --agent`'s spec (src/control/host.ts), and what the TUI and tests add. */
export interface AgentLaunch extends AgentSpec {
  /** More environment for the agent (on top of lazyshell's). */
  readonly env?: Readonly<Record<string, string>>;
  readonly cols?: number;
  readonly rows?: number;
  /** Told how the first prompt went (not called without one). */
  readonly onPrompt?: (outcome: PromptOutcome) => void;
}

/** Starts the agent session; the first prompt follows in the background. */
export async function launchAgent(runtime: Runtime, spec: AgentLaunch): Promise<Session> {
  const manifest = runtime.catalog.get(spec.agent);
  if (!manifest) {
    throw new UserError(`Unknown agent: ${spec.agent} (known: ${runtime.catalog.ids.join(", ")})`);
  }
  const path = runtime.env.PATH ?? "";
  // Its path as found on lazyshell's PATH: the session's shell may have another.
  const program = manifest.identity.processes.map((p) => which(p, path)).find((p) => p !== null);
  if (program === undefined || program === null) {
    const names = manifest.identity.processes.join(", ") || "no executable named";
    throw new UserError(`${manifest.name} is not installed (${names} not on PATH)`);
  }
  const prompt = spec.prompt?.trim() || undefined;
  const name = spec.name?.trim()
    ? checkSessionName(spec.name)
    : unique(runtime, (prompt && taskName(prompt)) || manifest.id);
  if (runtime.store.list().some((s) => s.name === name)) {
    throw new UserError(`A session is already named ${name}`);
  }
  let cwd = spec.cwd ?? runtime.store.cwd;
  let worktree: WorktreeInfo | null = null;
  const env: Record<string, string> = { ...spec.env };
  const config = runtime.config.worktrees;
  if (spec.worktree) {
    const repo = await repoOf(cwd);
    const home = runtime.env.HOME ?? "/";
    const dir = worktreePath(config.dir, repo.main, name, home);
    const made = await addWorktree(cwd, dir, branchName(config.branch_prefix, name));
    worktree = made;
    cwd = made.path;
    // Listed past its session (`ctl worktrees`); the list is a help, never a reason to fail.
    try {
      runtime.worktrees.add(made, name);
    } catch { /* unwritable state dir: the worktree is made all the same */ }
    env.LAZYSHELL_MAIN_CHECKOUT = made.repo;
    env.LAZYSHELL_WORKTREE = made.path;
  }
  let session: Session;
  try {
    session = runtime.createSession({
      command: shellQuote(program),
      cwd,
      name,
      env,
      worktree,
      ...(spec.group != null ? { group: spec.group } : {}),
      ...(spec.cols !== undefined ? { cols: spec.cols } : {}),
      ...(spec.rows !== undefined ? { rows: spec.rows } : {}),
      ...(worktree && config.setup ? { prelude: config.setup } : {}),
    });
  } catch (error) {
    // Nothing started in it: the new worktree and branch go again.
    if (worktree) {
      await undoWorktreeAdd(worktree).catch(() => {});
      try {
        runtime.worktrees.forget(worktree.path);
      } catch { /* as above */ }
    }
    throw error;
  }
  if (prompt) {
    const idleRules = manifest.rules.some((r) => r.state === "idle");
    void deliverFirstPrompt(promptHost(runtime), session, manifest.id, idleRules, prompt).then(
      (outcome) => spec.onPrompt?.(outcome),
      (error) => spec.onPrompt?.({ type: "failed", id: session.id, reason: String(error) }),
    );
  }
  return session;
}

function unique(runtime: Runtime, base: string): string {
  const taken = new Set(runtime.store.list().map((s) => s.name));
  if (!taken.has(base)) return base;
  for (let n = 2;; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

const lastChoices = new WeakMap<Runtime, readonly AgentChoice[]>();

/** The catalog's agents as the last detection found them (instant), or null before the first. */
export function knownAgentChoices(runtime: Runtime): readonly AgentChoice[] | null {
  return lastChoices.get(runtime) ?? null;
}

/** The catalog's agents, installed ones first (with their versions), then by name. */
export async function agentChoices(runtime: Runtime): Promise<readonly AgentChoice[]> {
  const reports = await detectAgents(runtime.catalog.detectable(runtime.env), {
    env: runtime.env,
  });
  const choices = reports
    .map((r) => ({ id: r.id, name: r.name, installed: r.installed, version: r.version }))
    .sort((a, b) => Number(b.installed) - Number(a.installed) || a.name.localeCompare(b.name));
  lastChoices.set(runtime, choices);
  return choices;
}
