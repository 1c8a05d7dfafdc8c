/**
 * The worktrees lazyshell made (docs/changes.md, "Worktrees lazyshell made"): each one recorded
 * when `N` or `ctl new --worktree` makes it, forgotten when lazyshell removes it, so `ctl
 * worktrees` lists them after their sessions are gone and `ctl worktree-remove BRANCH` finds one.
 * Kept in `<state dir>/worktrees.json` (0600 in a 0700 directory), rewritten atomically (a temp
 * file renamed over it). A damaged file reads as empty: it only ever lists, never decides.
 */

import { messageOf, UserError } from "../errors.ts";
import { type Env, stateDir } from "../config/paths.ts";
import type { WorktreeInfo } from "../model/session.ts";

/** One worktree lazyshell made. */
export interface WorktreeRecord extends WorktreeInfo {
  /** The name of the session it was made for. */
  readonly session: string;
  /** When it was made (epoch ms). */
  readonly at: number;
}

interface RegistryFile {
  readonly version: 1;
  readonly worktrees: readonly WorktreeRecord[];
}

const MAX_RECORDS = 1000;

function valid(r: unknown): r is WorktreeRecord {
  if (typeof r !== "object" || r === null) return false;
  const o = r as Record<string, unknown>;
  return ["path", "branch", "base", "repo", "session"].every((k) => typeof o[k] === "string") &&
    typeof o.at === "number" && (o.path as string).startsWith("/");
}

export class WorktreeRegistry {
  readonly path: string;

  constructor(env: Env) {
    this.path = `${stateDir(env)}/worktrees.json`;
  }

  /** Every recorded worktree, oldest first. */
  list(): WorktreeRecord[] {
    let text: string;
    try {
      text = Deno.readTextFileSync(this.path);
    } catch {
      return [];
    }
    try {
      const data = JSON.parse(text) as Partial<RegistryFile>;
      return Array.isArray(data.worktrees) ? data.worktrees.filter(valid) : [];
    } catch {
      return [];
    }
  }

  /** Records a worktree just made for session `session`. */
  add(info: WorktreeInfo, session: string, now = Date.now()): void {
    const rest = this.list().filter((r) => r.path !== info.path);
    this.#write([...rest, { ...info, session, at: now }].slice(-MAX_RECORDS));
  }

  /** Forgets the worktree at `path` (removed); false when it was not recorded. */
  forget(path: string): boolean {
    const all = this.list();
    const rest = all.filter((r) => r.path !== path);
    if (rest.length === all.length) return false;
    this.#write(rest);
    return true;
  }

  #write(worktrees: readonly WorktreeRecord[]): void {
    const dir = this.path.slice(0, this.path.lastIndexOf("/"));
    const temp = `${this.path}.${Deno.pid}.tmp`;
    const data: RegistryFile = { version: 1, worktrees };
    try {
      Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
      Deno.writeTextFileSync(temp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
      Deno.renameSync(temp, this.path);
    } catch (error) {
      throw new UserError(`Cannot record worktrees in ${this.path}: ${messageOf(error)}`);
    }
  }
}
